import Keel
import Testing

/// An identity map that meets a record its live model already holds (the author embedded in
/// every post of a page) leaves out the `set` only where that `set` would change nothing at
/// all: the model's last change is kept as Backbone's `set` would leave it, and validation asked
/// for still runs.
struct RelationUnchangedRecordTests {
    final class Writer: Model {
        override class var urlRoot: String? { "/writers" }

        override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
            attributes["name"] == "Bad" ? ValidationError("bad name") : nil
        }
    }

    final class Story: Model {
        static let writer = BelongsTo<Writer>("writer", foreignKey: "writerId")
        override class var relations: [any Relation] { [writer] }
    }

    private func stories(_ map: IdentityMap) -> Collection<Story> {
        Collection<Story>(factory: map.factory(for: Story.self, collection: "/stories"))
    }

    @Test func aRepeatedRecordLinksTheOneModelWithoutEvents() throws {
        let map = IdentityMap()
        let posts = stories(map)
        let first = try #require(posts.add(["id": 7, "writerId": 1, "writer": ["id": 1, "name": "Ada"]]))
        let writer = try #require(first[Story.writer])
        writer.set(["name": "Ada", "id": 1])  // settles the writer's change record
        var events: [String] = []
        writer.on("all") { events.append($0.name) }

        let second = try #require(posts.add(["id": 8, "writerId": 1, "writer": ["id": 1, "name": "Ada"]]))

        #expect(second[Story.writer] === writer)
        #expect(events.isEmpty)
        #expect(writer.attributes == ["id": 1, "name": "Ada"])
        #expect(writer.changedAttributes() == nil)
    }

    @Test func aRepeatedRecordAfterAChangeStartsANewChangeAsASetDoes() throws {
        let map = IdentityMap()
        let posts = stories(map)
        let first = try #require(posts.add(["id": 7, "writerId": 1, "writer": ["id": 1, "name": "Ada"]]))
        let writer = try #require(first[Story.writer])
        writer.set(["name": "Grace"])
        #expect(writer.changedAttributes() == ["name": "Grace"])
        #expect(writer.previous("name") == "Ada")

        let second = try #require(posts.add(["id": 8, "writerId": 1, "writer": ["id": 1, "name": "Grace"]]))

        #expect(second[Story.writer] === writer)
        // Backbone's `set` that changes nothing still empties `changed` and makes the current
        // attributes the previous ones.
        #expect(writer.changedAttributes() == nil)
        #expect(writer.previous("name") == "Grace")
    }

    @Test func aRepeatedRecordLoadedAfterAChangeThroughTheMapStartsANewChange() {
        let map = IdentityMap()
        let writer = map.model(Writer.self, collection: "/writers", attributes: ["id": 1, "name": "Ada"])
        writer.set(["name": "Grace"])

        let again = map.model(Writer.self, collection: "/writers", attributes: ["id": 1, "name": "Grace"])

        #expect(again === writer)
        #expect(writer.changedAttributes() == nil)
        #expect(writer.previousAttributes() == ["id": 1, "name": "Grace"])
    }

    @Test func aRepeatedRecordLoadedWithValidateTrueIsValidated() {
        let map = IdentityMap()
        let writer = map.model(Writer.self, collection: "/writers", attributes: ["id": 1, "name": "Bad"])
        writer.set(["id": 1, "name": "Bad"], validate: false)  // settles the writer's change record
        var invalid = 0
        writer.on("invalid") { _ in invalid += 1 }

        _ = map.model(
            Writer.self,
            collection: "/writers",
            attributes: ["id": 1, "name": "Bad"],
            options: ChangeOptions(validate: true)
        )

        #expect(invalid == 1)
        #expect(writer.validationError != nil)
    }

    @Test func aRecordInAnotherOrderOrWithAnEqualNumberLeavesTheModelAsASetDoes() throws {
        let map = IdentityMap()
        let posts = stories(map)
        let first = try #require(posts.add(["id": 7, "writerId": 1, "writer": ["id": 1, "name": "Ada", "rank": 2]]))
        let writer = try #require(first[Story.writer])
        writer.set(["name": "Ada"])  // settles the writer's change record
        var events: [String] = []
        writer.on("all") { events.append($0.name) }

        _ = try #require(posts.add(["id": 8, "writerId": 1, "writer": ["rank": 2.0, "name": "Ada", "id": 1]]))

        #expect(events.isEmpty)
        #expect(writer.attributes.keys == ["id", "name", "rank"])
        #expect(writer["rank"].flatMap(\.intValue) == 2)
        #expect(writer.changedAttributes() == nil)
    }

    @Test func aRepeatedRecordWithTheModelsBitsStaysTheOwnersValue() throws {
        let map = IdentityMap()
        let posts = stories(map)
        let first = try #require(posts.add(["id": 7, "writerId": 1, "writer": ["id": 1, "name": "Ada", "rank": 2]]))
        let writer = try #require(first[Story.writer])
        writer.set(["name": "Ada"])  // settles the writer's change record

        let second = try #require(posts.add(["id": 8, "writerId": 1, "writer": ["id": 1, "name": "Ada", "rank": 2]]))

        #expect(second[Story.writer] === writer)
        #expect(second["writer"] == ["id": 1, "name": "Ada", "rank": 2])
        #expect(isInteger(second["writer"]?.objectValue?["rank"]))
        #expect(writer.attributes == ["id": 1, "name": "Ada", "rank": 2])
    }

    @Test func aRepeatedRecordEqualWithOtherBitsIsReplacedByTheModelsAttributes() throws {
        let map = IdentityMap()
        let posts = stories(map)
        let first = try #require(posts.add(["id": 7, "writerId": 1, "writer": ["id": 1, "name": "Ada", "rank": 1]]))
        let writer = try #require(first[Story.writer])
        writer.set(["name": "Ada"])  // settles the writer's change record

        let second = try #require(
            posts.add(["id": 8, "writerId": 1, "writer": ["id": 1, "name": "Ada", "rank": 1.0]])
        )

        #expect(second[Story.writer] === writer)
        // `1.0` equals the model's `1`, so no `set`; the owner holds the model's value.
        #expect(isInteger(second["writer"]?.objectValue?["rank"]))
        #expect(isInteger(writer["rank"]))
    }

    @Test func anExactCopyFoundByAnotherLookupDoesNotVouchForALaterRecord() throws {
        let map = IdentityMap()
        let posts = stories(map)
        let first = try #require(posts.add(["id": 7, "writerId": 1, "writer": ["id": 1, "name": "Ada", "rank": 1]]))
        let writer = try #require(first[Story.writer])
        writer.set(["name": "Ada"])  // settles the writer's change record
        // Found holding this record bit for bit, through the map directly: no relation asks.
        let again = map.model(Writer.self, collection: "/writers", attributes: ["id": 1, "name": "Ada", "rank": 1])
        #expect(again === writer)

        let second = try #require(
            posts.add(["id": 8, "writerId": 1, "writer": ["id": 1, "name": "Ada", "rank": 1.0]])
        )

        #expect(isInteger(second["writer"]?.objectValue?["rank"]))
    }

    /// Whether `value` is an integer, not a double equal to one (`==` does not tell them apart).
    private func isInteger(_ value: JSONValue?) -> Bool {
        if case .int? = value { return true }
        return false
    }
}
