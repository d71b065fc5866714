import Keel
import Testing

/// The JSON:API type → class registry of an ``IdentityMap``: what registers a type, which
/// registration wins, and what ``IdentityMap/mergeIncluded(from:)`` does with each resource.
@MainActor
struct ResourceTypeRegistryTests {
    final class Tag: Model {
        override class var urlRoot: String? { "/tags" }
        override class var wireFormat: WireFormat { .jsonAPI }
    }

    final class Label: Model {
        override class var urlRoot: String? { "/labels" }
        override class var wireFormat: WireFormat { .jsonAPI(type: "tags") }
    }

    final class Writer: Model {
        override class var urlRoot: String? { "/writers" }
        override class var wireFormat: WireFormat { .jsonAPI(type: "people") }
    }

    final class Post: Model {
        static let writer = BelongsTo<Writer>("writer")
        override class var urlRoot: String? { "/posts" }
        override class var wireFormat: WireFormat { .jsonAPI }
        override class var relations: [any Relation] { [writer] }
    }

    private static let document: JSONValue = [
        "data": ["type": "posts", "id": "1", "attributes": ["title": "Hello"]],
        "included": [
            ["type": "tags", "id": "7", "attributes": ["name": "swift"]],
            ["type": "people", "id": "3", "attributes": ["name": "Ada", "email": "ada@example.com"]],
            ["type": "planets", "id": "9", "attributes": ["name": "Mars"]],
        ],
    ]

    @Test func aStoreRegistersItsClassesAndTheTargetsOfTheirRelations() {
        let store = Store.inMemory()
        store.register(Post.self)
        #expect(store.identityMap.modelType(forResourceType: "posts") == Post.self)
        #expect(store.identityMap.modelType(forResourceType: "people") == Writer.self)
        #expect(store.identityMap.modelType(forResourceType: "tags") == nil)
    }

    @Test func anAppRegistrationReplacesAnAutomaticOneAndASecondClassIsRefused() throws {
        let store = Store.inMemory()
        store.register(Tag.self)
        #expect(store.identityMap.modelType(forResourceType: "tags") == Tag.self)
        try store.identityMap.registerResourceType(for: Label.self, collection: "/labels")
        #expect(store.identityMap.modelType(forResourceType: "tags") == Label.self)

        #expect(throws: IdentityMapError.resourceTypeConflict(resourceType: "tags", registeredType: "Label", newType: "Tag")) {
            try store.identityMap.registerResourceType(for: Tag.self, collection: "/tags")
        }
        store.register(Tag.self, path: "/other-tags")
        #expect(store.identityMap.modelType(forResourceType: "tags") == Label.self)
    }

    @Test func includedResourcesOfKnownTypesBecomeLiveInstancesAndUnknownOnesAreSkipped() async throws {
        let store = Store(sync: ScriptedSync(always: SyncResponse(body: Self.document)))
        store.register(Tag.self)
        let writer = store.identityMap.model(Writer.self, collection: "/writers", attributes: ["id": 3, "age": 36])
        let tags = store.query(Tag.self)

        let post = try #require(try await store.find(Post.self, id: 1))

        #expect(post["title"] == "Hello")
        #expect(tags.models.map { $0["name"] } == ["swift"])
        #expect(store.peek(Tag.self, id: 7)?.unsavedChanges == nil)
        #expect(writer["name"] == "Ada")
        #expect(writer["age"] == 36)
        #expect(store.identityMap.modelType(forResourceType: "planets") == nil)
    }

    @Test func aResourceOfAKnownTypeThatIsNoRecordMergesNothing() throws {
        let map = IdentityMap()
        try map.registerResourceType(for: Tag.self, collection: "/tags")
        let document: JSONValue = [
            "data": [],
            "included": [
                ["type": "tags", "id": "1", "attributes": ["name": "ok"]],
                ["type": "tags", "id": "2", "attributes": "broken"],
            ],
        ]
        let error = #expect(throws: SyncError.self) { _ = try map.mergeIncluded(from: document) }
        guard case .unmappableResponse(let keyPath, _) = error else {
            Issue.record("expected an unmappable response, got \(String(describing: error))")
            return
        }
        #expect(keyPath == "included[1].attributes")
        #expect(map.existing(Tag.self, id: 1, in: "/tags") == nil)
    }

    @Test func theAnswerKeepsEveryIncludedResource() async throws {
        let post = Post(["id": 1])
        post.sync = ScriptedSync(always: SyncResponse(body: Self.document))
        let response = try await post.fetch()
        #expect(response.jsonAPIIncluded.map { $0["type"] } == ["tags", "people", "planets"])
    }
}
