import Keel
import Testing

/// The attribute a to-one relation keeps is its model's attributes (the mirror), exactly:
/// an embedded record that says less, in another order or with numbers of another kind
/// leaves the model's attributes there, not the record as sent.
struct RelationMirrorTests {
    final class Writer: Model {
        override class var urlRoot: String? { "/writers" }
    }

    final class Story: Model {
        static let writer = BelongsTo<Writer>("writer", foreignKey: "writerId")
        override class var relations: [any Relation] { [writer] }
    }

    private func stories(_ map: IdentityMap) -> Collection<Story> {
        Collection<Story>(factory: map.factory(for: Story.self, collection: "/stories"))
    }

    @Test func aPartialEmbeddedRecordStoresTheLiveModelsAttributes() throws {
        let map = IdentityMap()
        let writer = map.model(
            Writer.self,
            collection: "/writers",
            attributes: ["id": 1, "name": "Ada", "email": "a@x"]
        )
        let story = try #require(stories(map).add(["id": 7, "writerId": 1, "writer": ["id": 1, "name": "Ada"]]))

        #expect(story[Story.writer] === writer)
        #expect(story["writer"]?.objectValue?.keys == ["id", "name", "email"])
        #expect(story["writer"] == ["id": 1, "name": "Ada", "email": "a@x"])
    }

    @Test func anEmbeddedRecordInAnotherOrderStoresTheModelsOrder() throws {
        let map = IdentityMap()
        let writer = map.model(Writer.self, collection: "/writers", attributes: ["id": 1, "name": "Ada"])
        let story = try #require(stories(map).add(["id": 7, "writerId": 1, "writer": ["name": "Ada", "id": 1]]))

        #expect(story["writer"]?.objectValue?.keys == writer.attributes.keys)
    }

    @Test func anEqualNumberOfAnotherKindStoresTheModelsNumber() throws {
        let map = IdentityMap()
        let writer = map.model(Writer.self, collection: "/writers", attributes: ["id": 1, "rank": 2])
        let story = try #require(stories(map).add(["id": 7, "writerId": 1, "writer": ["id": 1, "rank": 2.0]]))

        let mirrored = try #require(story["writer"]?.objectValue?["rank"])
        let held = try #require(writer["rank"])
        #expect(Self.sameCase(mirrored, held), "the mirror's rank is \(mirrored), the writer's \(held)")
    }

    /// Whether two numbers are of one kind (`2` and `2.0` are equal, but not of one kind).
    private static func sameCase(_ first: JSONValue, _ second: JSONValue) -> Bool {
        switch (first, second) {
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        default: false
        }
    }

    @Test func aRecordTheModelRepeatsIsStoredAsTheModelsAttributes() throws {
        let map = IdentityMap()
        let posts = stories(map)
        let first = try #require(posts.add(["id": 7, "writerId": 1, "writer": ["id": 1, "name": "Ada"]]))
        let second = try #require(posts.add(["id": 8, "writerId": 1, "writer": ["id": 1, "name": "Ada"]]))
        let writer = try #require(first[Story.writer])

        #expect(second[Story.writer] === writer)
        writer.set(["name": "Grace"])
        #expect(first["writer"] == ["id": 1, "name": "Grace"])
        #expect(second["writer"] == ["id": 1, "name": "Grace"])
    }
}
