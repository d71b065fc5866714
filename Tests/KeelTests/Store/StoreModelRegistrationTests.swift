import Keel
import Synchronization
import Testing

/// A store tells its backend, through any of Keel's decorators, each class it registers
/// (`ModelRegistrationReceiving`): when it registers it, with the collection path and the
/// JSON:API type the identity map gives it.
@MainActor
struct StoreModelRegistrationTests {
    typealias Post = ResourceTypeRegistryTests.Post
    typealias Tag = ResourceTypeRegistryTests.Tag
    typealias Label = ResourceTypeRegistryTests.Label

    final class Note: Model {
        override class var urlRoot: String? { "/notes" }
    }

    /// A backend that records what it learns, as `"Class /path type"`.
    final class LearningSync: ModelRegistrationReceiving {
        let base = InMemorySync()
        private let learned = Mutex<[String]>([])

        var registrations: [String] { learned.withLock { $0 } }

        func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
            try await base.perform(request)
        }

        func register(_ registration: ModelRegistration) {
            let line = "\(registration.type) \(registration.collection) \(registration.resourceType ?? "-")"
            learned.withLock { $0.append(line) }
        }
    }

    @Test func aBackendBehindDecoratorsLearnsEachClassWhenTheStoreRegistersIt() throws {
        let backend = LearningSync()
        let store = Store(sync: RetryingSync(LoggingSync(backend) { _ in }))
        #expect(backend.registrations.isEmpty)

        _ = store.collection(Post.self)
        #expect(backend.registrations == ["Post /posts posts", "Writer /writers people"])

        _ = store.query(Note.self)
        store.register(Tag.self, path: "/tags")
        try store.identityMap.registerResourceType(for: Label.self, collection: "/labels")
        _ = store.collection(Post.self)

        #expect(
            backend.registrations == [
                "Post /posts posts", "Writer /writers people", "Note /notes -", "Tag /tags tags", "Label /labels tags",
            ]
        )
    }

    @Test func aBackendLearnsTheTypesRegisteredInTheMapBeforeTheStoreWasMade() throws {
        let map = IdentityMap()
        try map.registerResourceType(for: Label.self, collection: "/labels")
        let backend = LearningSync()

        _ = Store(sync: backend, identityMap: map)

        #expect(backend.registrations == ["Label /labels tags"])
    }
}
