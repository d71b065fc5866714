import Keel
import Observation
import Synchronization
import Testing

/// A JSON:API resource that a relation links to is a record of its class like any other: it
/// goes through the class's `parse` as the read links it, and each resource of a document is
/// applied once, whether a relation or `IdentityMap.mergeIncluded(from:)` reaches it.
@MainActor
struct JSONAPILinkedRecordParseTests {
    /// An author whose `parse` marks what it read and counts its calls.
    final class Writer: Model {
        static let parses = Atomic<Int>(0)
        override class var urlRoot: String? { "/writers" }
        override class var wireFormat: WireFormat { .jsonAPI(type: "writers") }

        override func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? {
            Self.parses.add(1, ordering: .relaxed)
            guard var record = response.objectValue else { return nil }
            if let name = record["name"]?.stringValue { record["name"] = .string(name.uppercased()) }
            return record
        }
    }

    final class Story: Model {
        static let writer = BelongsTo<Writer>("writer", foreignKey: "writerId")
        override class var urlRoot: String? { "/stories" }
        override class var wireFormat: WireFormat { .jsonAPI(type: "stories") }
        override class var relations: [any Relation] { [writer] }
    }

    /// An author of its own, for the test that observes one.
    final class Poet: Model {
        override class var urlRoot: String? { "/poets" }
        override class var wireFormat: WireFormat { .jsonAPI(type: "poets") }
    }

    final class Poem: Model {
        static let poet = BelongsTo<Poet>("poet", foreignKey: "poetId")
        override class var urlRoot: String? { "/poems" }
        override class var wireFormat: WireFormat { .jsonAPI(type: "poems") }
        override class var relations: [any Relation] { [poet] }
    }

    private func reading() throws -> (map: IdentityMap, stories: Collection<Story>) {
        let map = IdentityMap()
        try map.registerResourceType(for: Writer.self, collection: "/writers")
        return (map, Collection<Story>(factory: map.factory(for: Story.self, collection: "/stories")))
    }

    private nonisolated static func story(_ id: Int, writer: Int) -> JSONValue {
        [
            "type": "stories", "id": .string(String(id)), "attributes": ["title": .string("S\(id)")],
            "relationships": ["writer": ["data": ["type": "writers", "id": .string(String(writer))]]],
        ]
    }

    private nonisolated static func writer(_ id: Int, _ attributes: JSONObject) -> JSONValue {
        ["type": "writers", "id": .string(String(id)), "attributes": .object(attributes)]
    }

    /// The calls of `Writer.parse` that `body` makes.
    ///
    /// The tests that count them run one at a time on the main actor, and no other test reads
    /// a `Writer`.
    private func parses(_ body: () throws -> Void) rethrows -> Int {
        let before = Writer.parses.load(ordering: .relaxed)
        try body()
        return Writer.parses.load(ordering: .relaxed) - before
    }

    @Test func aLinkedResourceGoesThroughItsClassParseAsTheReadLinksIt() throws {
        let (map, stories) = try reading()
        let document: JSONValue = [
            "data": [Self.story(1, writer: 7)],
            "included": [Self.writer(7, ["name": "Ada"])],
        ]

        let duringRead = try parses { try stories.reset(parsing: document) }
        let writer = try #require(stories.first?[Story.writer])
        #expect(writer["name"] == "ADA")
        #expect(stories.first?["writer"]?["name"] == "ADA")
        let duringMerge = try parses { try map.mergeIncluded(from: document) }

        #expect(duringRead == 1)
        #expect(duringMerge == 0)
        #expect(writer["name"] == "ADA")
    }

    @Test func aResourceTwoRecordsLinkToIsParsedOnceAndMergedOnce() throws {
        let (map, stories) = try reading()
        let document: JSONValue = [
            "data": [Self.story(1, writer: 7), Self.story(2, writer: 7), Self.story(3, writer: 8)],
            "included": [Self.writer(7, ["name": "Ada"]), Self.writer(8, ["name": "Grace"])],
        ]

        var merged: [Model] = []
        let count = try parses {
            try stories.reset(parsing: document)
            merged = try map.mergeIncluded(from: document)
        }

        #expect(count == 2)
        let writers = stories.models.map { $0[Story.writer] }
        #expect(writers[0] === writers[1])
        #expect(merged.count == 2 && merged[0] === writers[0] && merged[1] === writers[2])
        #expect(writers.map { $0?["name"] } == ["ADA", "ADA", "GRACE"])
    }

    @Test func aResourceListedTwiceInOneDocumentIsReadOnceWithTheFieldsOfBoth() throws {
        let (map, stories) = try reading()
        let document: JSONValue = [
            "data": [Self.story(1, writer: 7), Self.story(2, writer: 7)],
            "included": [Self.writer(7, ["name": "Ada"]), Self.writer(7, ["email": "ada@example.com"])],
        ]

        var merged: [Model] = []
        let count = try parses {
            try stories.reset(parsing: document)
            merged = try map.mergeIncluded(from: document)
        }

        let writer = try #require(stories.first?[Story.writer])
        #expect(count == 1)
        #expect(writer.attributes == ["id": 7, "name": "ADA", "email": "ada@example.com"])
        #expect(merged.count == 2 && merged.allSatisfy { $0 === writer })
    }

    @Test func mergingTheDocumentAgainAppliesItsResourcesAgain() throws {
        let (map, stories) = try reading()
        let document: JSONValue = [
            "data": [Self.story(1, writer: 7)],
            "included": [Self.writer(7, ["name": "Ada"])],
        ]
        try stories.reset(parsing: document)
        try map.mergeIncluded(from: document)
        let writer = try #require(stories.first?[Story.writer])
        writer.set(["name": "Local"])

        let count = try parses { try map.mergeIncluded(from: document) }

        #expect(count == 1)
        #expect(writer["name"] == "ADA")
    }

    @Test func anotherDocumentWithTheSameResourceIsApplied() throws {
        let (map, stories) = try reading()
        let read: JSONValue = ["data": [Self.story(1, writer: 7)], "included": [Self.writer(7, ["name": "Ada"])]]
        let other: JSONValue = ["data": [], "included": [Self.writer(7, ["name": "Grace"])]]
        try stories.reset(parsing: read)

        try map.mergeIncluded(from: other)

        #expect(stories.first?[Story.writer]?["name"] == "GRACE")
    }

    @Test func aStoryReadAgainAppliesItsLinkedWriterThroughParseOnce() throws {
        let (map, stories) = try reading()
        let first: JSONValue = ["data": [Self.story(1, writer: 7)], "included": [Self.writer(7, ["name": "Ada"])]]
        try stories.reset(parsing: first)
        try map.mergeIncluded(from: first)
        let writer = try #require(stories.first?[Story.writer])
        let again: JSONValue = ["data": [Self.story(1, writer: 7)], "included": [Self.writer(7, ["name": "Grace"])]]

        let count = try parses {
            try stories.set(parsing: again)
            try map.mergeIncluded(from: again)
        }

        #expect(count == 1)
        #expect(stories.first?[Story.writer] === writer)
        #expect(writer["name"] == "GRACE")
    }

    @Test func aLinkedModelObservedAfterItWasBuiltReportsTheNextReadsChange() throws {
        let map = IdentityMap()
        try map.registerResourceType(for: Poet.self, collection: "/poets")
        let poems = Collection<Poem>(factory: map.factory(for: Poem.self, collection: "/poems"))
        func document(_ name: String) -> JSONValue {
            [
                "data": [
                    [
                        "type": "poems", "id": "1", "attributes": ["title": "Ode"],
                        "relationships": ["poet": ["data": ["type": "poets", "id": "3"]]],
                    ]
                ],
                "included": [["type": "poets", "id": "3", "attributes": ["name": .string(name)]]],
            ]
        }
        try poems.reset(parsing: document("Keats"))
        try map.mergeIncluded(from: document("Keats"))
        let poet = try #require(poems.first?[Poem.poet])
        let changed = Mutex(false)
        withObservationTracking {
            _ = poet["name"]
        } onChange: {
            changed.withLock { $0 = true }
        }

        let next = document("Shelley")
        try poems.set(parsing: next)
        try map.mergeIncluded(from: next)

        #expect(changed.withLock { $0 })
        #expect(poet["name"] == "Shelley")
        #expect(poems.first?["poet"]?["name"] == "Shelley")
    }
}
