import Foundation
import Keel
import Synchronization
import Testing

/// `Sync.backend(as:)` looks down a chain of decorators (`SyncDecorator`), Keel's and an
/// app's, for a backend of a type or protocol.
struct SyncDecoratorTests {
    /// An app's decorator that counts what it sends.
    final class CountingSync: SyncDecorator {
        let base: any Sync
        let sent = Mutex(0)
        init(_ base: any Sync) { self.base = base }
        func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
            sent.withLock { $0 += 1 }
            return try await base.perform(request)
        }
    }

    /// A backend that learns registrations.
    final class LearningSync: ModelRegistrationReceiving {
        let learned = Mutex<[String]>([])
        func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse { SyncResponse(status: 204) }
        func register(_ registration: ModelRegistration) {
            learned.withLock { $0.append(registration.collection) }
        }
    }

    @Test func theFirstBackendOfTheTypeDownTheChainIsFound() {
        let store = InMemorySync()
        let chain = CountingSync(
            TokenAuthSync(
                CancellableSync(ConcurrencyLimitedSync(DeduplicatingSync(ConditionalSync(store)), limit: 2)),
                baseURL: URL(string: "https://api.example.com")!
            ) { _ in "token" }
        )
        #expect(chain.backend(as: InMemorySync.self) === store)
        #expect(chain.backend(as: ConditionalSync.self) != nil)
        #expect(chain.backend(as: CountingSync.self) === chain)
        #expect(chain.backend(as: (any ModelRegistrationReceiving).self) == nil)
    }

    @Test func aBackendThatIsNoDecoratorEndsTheSearch() {
        #expect(InMemorySync().backend(as: LoggingSync.self) == nil)
    }

    @Test @MainActor func aStoreTellsRegistrationsThroughAnAppsDecorator() {
        final class Note: Model {
            override class var urlRoot: String? { "/notes" }
        }
        let learning = LearningSync()
        let store = Store(sync: CountingSync(RetryingSync(learning)))
        _ = store.collection(Note.self)
        #expect(learning.learned.withLock { $0 } == ["/notes"])
    }
}
