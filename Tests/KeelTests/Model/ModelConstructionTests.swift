import Keel
import Testing

// Ports of Backbone's test/model.js cases about construction: `initialize`, `parse` in the
// initializer, and the state a new model starts in.

private final class Initialized: Model {
    var one = 0
    var optionSeen: JSONValue?
    var collectionCIDSeen: String?
    var attributesSeen: Attributes?

    override func initialize(_ attributes: Attributes, options: ChangeOptions) {
        one = 1
        optionSeen = options["one"]
        collectionCIDSeen = collection?.cid
        attributesSeen = self.attributes
    }
}

private final class DefaultedAndInitialized: Model {
    override class var defaults: Attributes { ["one": 1] }

    var oneSeenByInitialize: JSONValue?

    override func initialize(_ attributes: Attributes, options: ChangeOptions) {
        oneSeenByInitialize = get("one")
    }
}

private final class IncrementingParser: Model {
    override func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? {
        guard var attributes = response.objectValue else { return nil }
        attributes["value"] = .int((attributes["value"]?.intValue ?? 0) + 1)
        return attributes
    }
}

private final class NilParser: Model {
    override func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? { nil }
}

private final class ReadingParser: Model {
    var hadAWhileParsing: Bool?

    override func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? {
        hadAWhileParsing = has("a")
        return response.objectValue
    }
}

struct ModelConstructionTests {
    // Backbone: "initialize"
    // Adapted: the `collection` option is internal in Keel, so the collection builds the model.
    @Test func initializeRunsWithTheCollectionAlreadyAssigned() throws {
        let notes = Collection<Initialized>()
        let model = try #require(notes.add(["id": 1]))
        #expect(model.one == 1)
        #expect(model.collectionCIDSeen == notes.cid)
        #expect(model.collection === notes)
    }

    // Backbone: "initialize with attributes and options"
    @Test func initializeReceivesTheOptions() {
        let model = Initialized([:], options: ChangeOptions(custom: ["one": 1]))
        #expect(model.optionSeen == 1)
    }

    // Backbone: "initialize with parsed attributes"
    @Test func parseOptionRunsParseOnTheInitialAttributes() {
        let model = IncrementingParser(["value": 1], options: ChangeOptions(parse: true))
        #expect(model.get("value") == 2)
    }

    // Backbone: "parse can return null"
    @Test func parseReturningNilGivesAnEmptyModel() {
        let model = NilParser(["value": 1], options: ChangeOptions(parse: true))
        #expect(model.toJSON().isEmpty)
        #expect(model.attributes.isEmpty)
    }

    // Backbone: "#1791 - `attributes` is available for `parse`"
    // Adapted: Backbone passes null attributes; Keel passes an empty object.
    @Test func parseMayReadAttributesDuringConstruction() {
        let model = ReadingParser([:], options: ChangeOptions(parse: true))
        #expect(model.hadAWhileParsing == false)
    }

    // Backbone: "preinitialize" and "preinitialize occurs before the model is set up"
    // Adapted: Keel has no `preinitialize` hook (JS-only, semantics §8.11); the state after
    // construction is checked: collection, id and cid are all assigned.
    @Test func constructionAssignsCollectionIDAndCID() throws {
        let notes = Collection<Model>()
        let model = try #require(notes.add(["id": "foo"]))
        #expect(model.collection === notes)
        #expect(model.id == "foo")
        #expect(!model.cid.isEmpty)
    }

    // Backbone: "defaults always extend attrs (#459)"
    @Test func defaultsAreVisibleInInitialize() {
        let provided = DefaultedAndInitialized([:])
        let empty = DefaultedAndInitialized()
        #expect(provided.oneSeenByInitialize == 1)
        #expect(empty.oneSeenByInitialize == 1)
    }

    // Backbone semantics §2.1 step 8 (verified): a new model has no changes and no previous state.
    @Test func aNewModelStartsWithoutChanges() {
        let model = Model(["name": "Tim"])
        #expect(!model.hasChanged())
        #expect(model.changedAttributes() == nil)
        #expect(model.changed.isEmpty)
        #expect(model.previousAttributes().isEmpty)
        #expect(model.previous("name") == nil)
    }

    // Backbone semantics §2.1 step 9: `initialize` runs after the attributes are stored.
    @Test func initializeSeesTheFinalAttributes() {
        let model = Initialized(["a": 1, "b": nil])
        #expect(model.attributesSeen == ["a": 1, "b": nil])
    }
}
