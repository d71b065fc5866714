import Keel
import Testing

/// Records the custom `modelParameter` option it was created with.
private final class OptionsAware: Model {
    var modelParameter: JSONValue?

    override func initialize(_ attributes: Attributes, options: ChangeOptions) {
        modelParameter = options["modelParameter"]
    }
}

/// Adds `name: "test"` when parsing.
private final class Named: Model {
    override func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? {
        guard var object = response.objectValue else { return nil }
        object["name"] = "test"
        return object
    }
}

/// Reads the models from a `namespace` key.
private final class NamespacedCollection: Collection<Named> {
    override func parse(_ response: JSONValue, options: UpdateOptions) -> [Attributes]? {
        response["namespace"]?.arrayValue?.compactMap(\.objectValue)
    }
}

/// Keeps only the entries whose `a` is even.
private final class EvenEntriesCollection: Collection<Model> {
    override func parse(_ response: JSONValue, options: UpdateOptions) -> [Attributes]? {
        response.arrayValue?.compactMap(\.objectValue).filter { ($0["a"]?.intValue ?? 1) % 2 == 0 }
    }
}

/// Rejects the id 3.
private final class NotThree: Model {
    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        attributes["id"] == 3 ? ValidationError("id can't be 3") : nil
    }
}

struct CollectionResetTests {
    // Backbone: "reset"
    @Test func resetReplacesTheModelsAndFiresReset() throws {
        let fixture = LabelledCollectionFixture()
        let col = fixture.col
        var resetCount = 0
        let models = col.models
        col.on("reset") { _ in resetCount += 1 }
        col.reset()
        #expect(resetCount == 1)
        #expect(col.isEmpty)
        #expect(col.last == nil)
        col.reset(models)
        #expect(resetCount == 2)
        #expect(col.count == 4)
        #expect(col.last === fixture.d)
        col.reset(models.map(\.attributes))
        #expect(resetCount == 3)
        #expect(col.count == 4)
        let last = try #require(col.last)
        #expect(last !== fixture.d)
        #expect(last.attributes == fixture.d.attributes)
        col.reset()
        #expect(col.isEmpty)
        #expect(resetCount == 4)

        // Keel: there are no holes (`undefined` entries); empty models stand in for them.
        let f = Model(["id": 20, "label": "f"])
        col.reset([Model(), f])
        #expect(col.count == 2)
        #expect(resetCount == 5)

        col.reset([Attributes](repeating: [:], count: 4))
        #expect(col.count == 4)
        #expect(resetCount == 6)
    }

    // Backbone: "reset with different values"
    @Test func resetBuildsFromNewAttributes() {
        let collection = Collection<Model>([["id": 1]])
        collection.reset([["id": 1, "a": 1]])
        #expect(collection.get(1)?["a"] == 1)
    }

    // Backbone: "same references in reset"
    @Test func resetKeepsGivenInstances() {
        let model = Model(["id": 1])
        let collection = Collection<Model>([["id": 1]])
        collection.reset([model])
        #expect(collection.get(1) === model)
        #expect(model.collection === collection)
    }

    // Backbone: "reset passes caller options"
    @Test func resetPassesTheCallersOptionsToNewModels() {
        let collection = Collection<OptionsAware>()
        collection.reset(
            [["astring": "green", "anumber": 1], ["astring": "blue", "anumber": 2]],
            options: UpdateOptions(custom: ["modelParameter": "model parameter"])
        )
        #expect(collection.count == 2)
        for model in collection {
            #expect(model.modelParameter == "model parameter")
        }
    }

    // Backbone: "reset does not alter options by reference"
    @Test func resetReportsPreviousModelsOnTheEvent() throws {
        let collection = Collection<Model>([["id": 1]])
        let options = UpdateOptions(custom: ["source": "test"])
        var events: [Event] = []
        collection.on("reset") { events.append($0) }
        collection.reset([Attributes](), options: options)
        // Keel: options are values; `previousModels` is a property of the event.
        let event = try #require(events.first)
        #expect(event.previousModels?.first?.id == 1)
        #expect(event.options["source"] == "test")
        #expect(options.custom == ["source": "test"])
    }

    // Backbone: "Reset includes previous models in triggered event."
    @Test func resetEventListsThePreviousModels() {
        let model = Model()
        let collection = Collection<Model>([model])
        var previous: [String]?
        collection.on("reset") { event in previous = event.previousModels?.map(\.cid) }
        collection.reset()
        #expect(previous == [model.cid])
    }

    // Backbone: "new and parse"
    @Test func parsingResetUsesTheCollectionsParse() throws {
        // Keel: JSON goes through `reset(parsing:)`; the initializer takes attributes.
        let collection = EvenEntriesCollection()
        try collection.reset(parsing: [["a": 1], ["a": 2], ["a": 3], ["a": 4]])
        #expect(collection.count == 2)
        #expect(collection.first?["a"] == 2)
        #expect(collection.last?["a"] == 4)
    }

    // Backbone: "#1407 parse option on constructor parses collection and models"
    @Test func initializerParseRunsTheModelsParse() throws {
        // Keel: the initializer takes an array, so the collection's `parse` sees that array
        // (the default accepts it) and each model's `parse` runs.
        let collection = Collection<Named>([["id": 1], ["id": 2]], options: UpdateOptions(parse: true))
        #expect(collection.count == 2)
        #expect(collection.at(0)?["name"] == "test")

        let parsed = NamespacedCollection()
        try parsed.reset(parsing: ["namespace": [["id": 1], ["id": 2]]])
        #expect(parsed.count == 2)
        #expect(parsed.at(0)?["name"] == "test")
    }

    // Backbone: "#1407 parse option on reset parses collection and models"
    @Test func parsingResetRunsCollectionThenModelParse() throws {
        let collection = NamespacedCollection()
        try collection.reset(parsing: ["namespace": [["id": 1], ["id": 2]]])
        #expect(collection.count == 2)
        #expect(collection.at(0)?["name"] == "test")
        #expect(collection.at(1)?["name"] == "test")
    }

    // MARK: - Keel's reset contract

    // Keel: reset fires one `reset`, and no `add`, `remove` or `update`.
    @Test func resetFiresOnlyReset() {
        let fixture = LabelledCollectionFixture()
        let log = CollectionEventLog(fixture.col)
        var modelEvents: [String] = []
        fixture.a.on("all") { modelEvents.append($0.name) }
        fixture.col.reset([["id": 9]])
        #expect(log.names == ["reset"])
        #expect(modelEvents.isEmpty)
        #expect(fixture.col.pluck("id") == [9])
    }

    // Keel: previous models are detached and no longer reachable.
    @Test func resetDetachesThePreviousModels() {
        let fixture = LabelledCollectionFixture()
        let kept = fixture.b
        fixture.col.reset([kept])
        #expect(fixture.a.collection == nil)
        #expect(fixture.d.collection == nil)
        #expect(kept.collection === fixture.col)
        #expect(fixture.col.get(3) == nil)
        #expect(fixture.col.get(JSONValue(fixture.a.cid)) == nil)
        #expect(fixture.col.get(2) === kept)
    }

    // Keel: a model kept across a reset forwards its events once, not twice.
    @Test func modelKeptAcrossResetForwardsOnce() {
        let model = Model(["id": 1])
        let collection = Collection<Model>([model])
        collection.reset([model])
        var changes = 0
        collection.on("change") { _ in changes += 1 }
        model.set(["title": "x"])
        #expect(changes == 1)
    }

    // Keel: reset sorts with the comparator and returns the new models in input order.
    @Test func resetSortsAndReturnsTheNewModels() {
        let collection = Collection<Model>(comparator: .attribute("id"))
        let result = collection.reset([["id": 3], ["id": 1], ["id": 2], ["id": 1]])
        #expect(collection.pluck("id") == [1, 2, 3])
        #expect(result.map(\.id) == [3, 1, 2, 1])
        #expect(result[1] === result[3])
    }

    // Keel: `silent` suppresses the `reset` event.
    @Test func silentResetFiresNothing() {
        let collection = Collection<Model>([["id": 1]])
        let log = CollectionEventLog(collection)
        collection.reset([["id": 2]], silent: true)
        #expect(log.names.isEmpty)
        #expect(collection.pluck("id") == [2])
    }

    // Keel: a response that `parse` rejects throws and leaves the collection as it was.
    @Test func unparsableResetThrowsAndKeepsTheModels() {
        let collection = Collection<Model>([["id": 1]])
        let log = CollectionEventLog(collection)
        #expect(throws: CollectionError.unparsableResponse(["not": "a list"])) {
            try collection.reset(parsing: ["not": "a list"])
        }
        #expect(collection.pluck("id") == [1])
        #expect(log.names.isEmpty)
    }

    // Keel: `validate: true` drops invalid models on reset; Backbone fires `invalid` for each
    // even though reset adds silently, because the caller's reset was not silent.
    @Test func resetWithValidateDropsInvalidModelsAndReportsThem() {
        let collection = Collection<NotThree>()
        var invalid = 0
        collection.on("invalid") { _ in invalid += 1 }
        collection.reset([["id": 1], ["id": 3], ["id": 4]], options: UpdateOptions(validate: true))
        #expect(collection.pluck("id") == [1, 4])
        #expect(invalid == 1)
    }
}
