import Keel
import Testing

private final class MongoModel: Model {
    override class var idAttribute: String { "_id" }
}

private final class Defaulted: Model {
    override class var defaults: Attributes { ["key": "value"] }
}

/// Builds a child model from its `child` attribute, as Backbone's test does in `initialize`.
private final class Parent: Model {
    var child: Parent?

    override func initialize(_ attributes: Attributes, options: ChangeOptions) {
        if let child = attributes["child"]?.objectValue { self.child = Parent(child) }
    }
}

/// Counts its own `parse` calls and marks what it parsed.
private final class CountingParse: Model {
    var parseCalls = 0
    var sawParsedMark = false

    override func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? {
        parseCalls += 1
        guard var object = response.objectValue else { return nil }
        if object["parsed"] != nil { sawParsedMark = true }
        object["parsed"] = true
        return object
    }
}

/// Reads `{"models": [{"model": {...}}]}`.
private final class WrappedModelsCollection: Collection<Model> {
    override func parse(_ response: JSONValue, options: UpdateOptions) -> [Attributes]? {
        response["models"]?.arrayValue?.compactMap { $0["model"]?.objectValue }
    }
}

/// Reads `{"status": "ok", "data": [...]}` and remembers what it saw.
private final class EnvelopeCollection: Collection<Model> {
    var seenStatus: JSONValue?
    var seenHeader: JSONValue?

    override func parse(_ response: JSONValue, options: UpdateOptions) -> [Attributes]? {
        seenStatus = response["status"]
        seenHeader = options["someHeader"]
        return response["data"]?.arrayValue?.compactMap(\.objectValue)
    }
}

/// Its `parse` finds nothing in any response.
private final class NothingCollection: Collection<Model> {
    override func parse(_ response: JSONValue, options: UpdateOptions) -> [Attributes]? { nil }
}

/// Its `parse` returns an empty list for any response.
private final class EmptyCollection: Collection<Model> {
    override func parse(_ response: JSONValue, options: UpdateOptions) -> [Attributes]? { [] }
}

private final class SubItem: Model {}

/// Parses its `subItems` into a nested collection.
private final class Item: Model {
    let subItems = Collection<SubItem>()

    override func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? {
        guard var object = response.objectValue else { return nil }
        if let nested = object.removeValue(forKey: "subItems") {
            _ = try? subItems.set(parsing: nested)
        }
        return object
    }
}

/// Parses its `items` into a nested collection of items.
private final class Job: Model {
    let items = Collection<Item>()

    override func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? {
        guard var object = response.objectValue else { return nil }
        if let nested = object.removeValue(forKey: "items") {
            _ = try? items.set(parsing: nested)
        }
        return object
    }
}

/// Rejects the id 3.
private final class NotThree: Model {
    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        attributes["id"] == 3 ? ValidationError("id can't be 3") : nil
    }
}

struct CollectionSetTests {
    // MARK: - Flags

    // Backbone: "set"
    @Test func setHonoursAddRemoveAndMergeFlags() {
        let m1 = Model()
        let m2 = Model(["id": 2])
        let m3 = Model()
        let collection = Collection<Model>([m1, m2])

        var added: [String] = []
        var changed: [String] = []
        var removed: [String] = []
        collection.on("add") { added.append($0.model?.cid ?? "") }
        collection.on("change") { changed.append($0.model?.cid ?? "") }
        let removeSubscription = collection.on("remove") { removed.append($0.model?.cid ?? "") }

        // `remove: false` doesn't remove any models.
        collection.set([Model](), remove: false)
        #expect(collection.count == 2)

        // `add: false` doesn't add any models.
        collection.set([m1, m2, m3], add: false)
        #expect(collection.count == 2)

        // `merge: false` doesn't change any models.
        // Keel: one call takes models or attributes; another instance stands for `{id: 2, a: 1}`.
        collection.set([m1, Model(["id": 2, "a": 1])], merge: false)
        #expect(m2["a"] == nil)

        // `add: false, remove: false` only merges existing models.
        collection.set([m1, Model(["id": 2, "a": 0]), m3, Model(["id": 4])], add: false, remove: false)
        #expect(collection.count == 2)
        #expect(m2["a"] == 0)

        // The defaults add, remove and merge as appropriate.
        collection.set([Model(["id": 2, "a": 1]), m3])
        #expect(collection.count == 2)
        #expect(m2["a"] == 1)
        #expect(added == [m3.cid])
        #expect(changed == [m2.cid, m2.cid])
        #expect(removed == [m1.cid])

        // Removing models by passing nothing.
        removeSubscription.cancel()
        var laterRemoved: [String] = []
        collection.on("remove") { laterRemoved.append($0.model?.cid ?? "") }
        collection.set([Model]())
        #expect(collection.isEmpty)
        #expect(Set(laterRemoved) == [m2.cid, m3.cid])
        // Keel: `set()` without an argument does not exist, so there is no no-op form to test.
    }

    // Backbone: "set with only cids"
    @Test func setDeduplicatesModelsWithoutIDsByInstance() {
        let m1 = Model()
        let m2 = Model()
        let collection = Collection<Model>()
        collection.set([m1, m2])
        #expect(collection.count == 2)
        collection.set([m1])
        #expect(collection.count == 1)
        collection.set([m1, m1, m1, m2, m2], remove: false)
        #expect(collection.count == 2)
    }

    // Backbone: "set with only idAttribute"
    @Test func setDeduplicatesByCustomIDAttribute() {
        let m1: Attributes = ["_id": 1]
        let m2: Attributes = ["_id": 2]
        let collection = Collection<MongoModel>()
        collection.set([m1, m2])
        #expect(collection.count == 2)
        collection.set([m1])
        #expect(collection.count == 1)
        collection.set([m1, m1, m1, m2, m2], remove: false)
        #expect(collection.count == 2)
    }

    // Backbone: "`set` with non-normal id"
    @Test func setMergesByCustomIDAttributeWithoutAdding() {
        let collection = Collection<MongoModel>([["_id": 1]])
        collection.set([["_id": 1, "a": 1]], add: false)
        #expect(collection.first?["a"] == 1)
    }

    // Backbone: "#3020: #set with {add: false} should not throw."
    @Test func setWithoutAddOnAnEmptyCollectionAddsNothing() {
        let collection = Collection<Model>()
        collection.set([["id": 1]], add: false)
        #expect(collection.isEmpty)
        #expect(collection.models.isEmpty)
    }

    // Backbone: "Do not allow duplicate models to be `add`ed or `set`"
    @Test func addAndSetCollapseDuplicateIDs() {
        let collection = Collection<Model>()
        collection.add([["id": 1], ["id": 1]])
        #expect(collection.count == 1)
        #expect(collection.models.count == 1)
        collection.set([["id": 1], ["id": 1]])
        #expect(collection.count == 1)
        #expect(collection.models.count == 1)
    }

    // Backbone: "set + merge with default values defined"
    @Test func mergingDoesNotReapplyDefaults() {
        let m = Defaulted(["id": 1])
        let collection = Collection<Defaulted>([m])
        #expect(collection.first?["key"] == "value")
        collection.set([["id": 1, "key": "other"]])
        #expect(collection.first?["key"] == "other")
        collection.set([["id": 1, "other": "value"]])
        #expect(collection.first?["key"] == "other")
        #expect(collection.count == 1)
    }

    // Backbone: "merge without mutation"
    @Test func mergingDoesNotMutateTheInput() {
        // Keel: the child lives in a property, since attributes hold JSON values, not models.
        let data: [Attributes] = [["id": 1, "child": ["id": 2]]]
        let collection = Collection<Parent>(data)
        #expect(collection.first?.id == 1)
        #expect(collection.first?.child?.id == 2)
        collection.set(data)
        #expect(collection.first?.id == 1)
        collection.set([["id": 2, "child": ["id": 2]]] + data)
        #expect(collection.pluck("id") == [2, 1])
        #expect(data == [["id": 1, "child": ["id": 2]]])
    }

    // MARK: - Order

    // Backbone: "`set` matches input order in the absence of a comparator"
    @Test func setMatchesInputOrderWithoutAComparator() {
        let one = Model(["id": 1])
        let two = Model(["id": 2])
        let three = Model(["id": 3])
        let collection = Collection<Model>([one, two, three])
        collection.set([["id": 3], ["id": 2], ["id": 1]])
        #expect(collection.cidsInOrder == [three, two, one].cidsInOrder)
        collection.set([["id": 1], ["id": 2]])
        #expect(collection.cidsInOrder == [one, two].cidsInOrder)
        collection.set([two, three, one])
        #expect(collection.cidsInOrder == [two, three, one].cidsInOrder)
        collection.set([["id": 1], ["id": 2]], remove: false)
        #expect(collection.cidsInOrder == [two, three, one].cidsInOrder)
        collection.set([["id": 1], ["id": 2], ["id": 3]], merge: false)
        #expect(collection.cidsInOrder == [one, two, three].cidsInOrder)
        collection.set([three, two, one, Model(["id": 4])], add: false)
        #expect(collection.cidsInOrder == [one, two, three].cidsInOrder)
    }

    // Keel: with `remove: false` or `add: false`, present models keep their places (verified in Backbone).
    @Test func partialSetsKeepPositions() {
        let appending = Collection<Model>([["id": 1], ["id": 2]])
        appending.set([["id": 3], ["id": 1]], remove: false)
        #expect(appending.pluck("id") == [1, 2, 3])

        let merging = Collection<Model>([["id": 1], ["id": 2], ["id": 3]])
        merging.set([["id": 3], ["id": 9], ["id": 1]], add: false)
        #expect(merging.pluck("id") == [1, 3])

        let inserting = Collection<Model>([["id": 1], ["id": 2], ["id": 3]])
        let result = inserting.set([["id": 3], ["id": 9], ["id": 1]], remove: false, at: 1)
        #expect(inserting.pluck("id") == [1, 9, 2, 3])
        #expect(result.map(\.id) == [3, 9, 1])
    }

    // MARK: - Events

    // Keel: one `set` fires merges' changes, removals, additions, sort, then update (verified in Backbone).
    @Test func setFiresEventsInBackbonesOrder() throws {
        let collection = Collection<Model>([["id": 1], ["id": 2], ["id": 3, "t": "a"]])
        let log = CollectionEventLog(collection)
        collection.set([["id": 4], ["id": 3, "t": "C"], ["id": 1]])
        #expect(log.names == ["change:t", "change", "remove", "add", "sort", "update"])
        #expect(log.events.map { $0.model?.id } == [3, 3, 2, 4, nil, nil])
        #expect(log.events(named: "remove").first?.index == 1)
        #expect(log.events(named: "add").first?.index == nil)
        let changes = try #require(log.events(named: "update").first?.changes)
        #expect(changes.added.map(\.id) == [4])
        #expect(changes.removed.map(\.id) == [2])
        #expect(changes.merged.map(\.id) == [3, 1])
        #expect(collection.pluck("id") == [4, 3, 1])
    }

    // Keel: the call's options reach every event of a `set` (Backbone's `{amazing: true}`).
    @Test func setPassesItsOptionsToEveryEvent() {
        let collection = Collection<Model>([["id": 1], ["id": 2], ["id": 3, "t": "a"]])
        let log = CollectionEventLog(collection)
        collection.set([["id": 4], ["id": 3, "t": "C"], ["id": 1]], options: UpdateOptions(custom: ["amazing": true]))
        #expect(log.names == ["change:t", "change", "remove", "add", "sort", "update"])
        #expect(log.events.allSatisfy { $0.options["amazing"] == true })
    }

    // Keel: the options of `remove` reach its `remove` and `update` events.
    @Test func removePassesItsOptionsToItsEvents() {
        let collection = Collection<Model>([["id": 1], ["id": 2]])
        let log = CollectionEventLog(collection)
        collection.remove([Model(["id": 1])], options: UpdateOptions(custom: ["amazing": true]))
        #expect(log.names == ["remove", "update"])
        #expect(log.events.allSatisfy { $0.options["amazing"] == true })
    }

    // Keel: a `set`'s removals are all done before its first `remove` event; each `index` is
    // the one Backbone reports.
    @Test func setRemoveEventsSeeAllRemovalsOfTheCall() {
        let collection = Collection<Model>([["id": 1], ["id": 2], ["id": 3], ["id": 4], ["id": 5]])
        var seen: [(id: JSONValue?, index: Int?, count: Int)] = []
        collection.on("remove") { event in seen.append((event.model?.id, event.index, collection.count)) }
        collection.set([["id": 2], ["id": 4]])
        #expect(seen.map(\.id) == [1, 3, 5])
        #expect(seen.map(\.index) == [0, 1, 2])
        #expect(seen.map(\.count) == [2, 2, 2])
    }

    // Backbone: "set triggers `set` event once"
    @Test func setFiresOneUpdate() {
        let collection = Collection<Model>([["id": 1], ["id": 2]])
        let log = CollectionEventLog(collection, "update")
        collection.set([["id": 1], ["id": 3]])
        #expect(log.events.count == 1)
    }

    // Backbone: "set does not trigger `update` event when nothing added nor removed"
    @Test func setWithOnlyMatchesStillReportsMerges() throws {
        let collection = Collection<Model>([["id": 1], ["id": 2]])
        let log = CollectionEventLog(collection, "update")
        collection.set([["id": 1], ["id": 2]])
        // Despite its name, the Backbone test expects `update`, with two merged models.
        #expect(log.events.count == 1)
        let changes = try #require(log.events.first?.changes)
        #expect(changes.added.isEmpty)
        #expect(changes.removed.isEmpty)
        #expect(changes.merged.count == 2)
    }

    // Backbone: "#3711 - set's `update` event returns one added model"
    @Test func setsUpdateListsTheAddedModel() throws {
        let model = Model(["id": 1, "title": "First Post"])
        let collection = Collection<Model>()
        let log = CollectionEventLog(collection, "update")
        collection.set([model])
        let changes = try #require(log.events.first?.changes)
        #expect(changes.added.cidsInOrder == [model.cid])
    }

    // Backbone: "#3711 - set's `update` event returns multiple added models"
    @Test func setsUpdateListsAddedModelsInOrder() throws {
        let model = Model(["id": 1, "title": "First Post"])
        let model2 = Model(["id": 2, "title": "Second Post"])
        let collection = Collection<Model>()
        let log = CollectionEventLog(collection, "update")
        collection.set([model, model2])
        let changes = try #require(log.events.first?.changes)
        #expect(changes.added.cidsInOrder == [model.cid, model2.cid])
    }

    // Backbone: "#3711 - set's `update` event returns one removed model"
    @Test func setsUpdateListsTheRemovedModel() throws {
        let model = Model(["id": 1, "title": "First Post"])
        let model2 = Model(["id": 2, "title": "Second Post"])
        let model3 = Model(["id": 3, "title": "My Last Post"])
        let collection = Collection<Model>([model])
        let log = CollectionEventLog(collection, "update")
        collection.set([model2, model3])
        let changes = try #require(log.events.first?.changes)
        #expect(changes.added.count == 2)
        #expect(changes.merged.isEmpty)
        #expect(changes.removed.cidsInOrder == [model.cid])
    }

    // Backbone: "#3711 - set's `update` event returns multiple removed models"
    @Test func setsUpdateListsRemovedModelsInOrder() throws {
        let model = Model(["id": 1, "title": "First Post"])
        let model2 = Model(["id": 2, "title": "Second Post"])
        let model3 = Model(["id": 3, "title": "My Last Post"])
        let collection = Collection<Model>([model, model2])
        let log = CollectionEventLog(collection, "update")
        collection.set([model3])
        let changes = try #require(log.events.first?.changes)
        #expect(changes.removed.cidsInOrder == [model.cid, model2.cid])
    }

    // Backbone: "#3711 - set's `update` event returns one merged model"
    @Test func setsUpdateListsTheMergedModel() throws {
        let model = Model(["id": 1, "title": "First Post"])
        let model2 = Model(["id": 2, "title": "Second Post"])
        let model2Update = Model(["id": 2, "title": "Second Post V2"])
        let collection = Collection<Model>([model, model2])
        let log = CollectionEventLog(collection, "update")
        collection.set([model2Update])
        let changes = try #require(log.events.first?.changes)
        #expect(changes.merged.count == 1)
        #expect(changes.merged.first?["title"] == model2Update["title"])
        #expect(changes.merged.first === model2)
    }

    // Backbone: "#3711 - set's `update` event returns multiple merged models"
    @Test func setsUpdateListsMergedModelsInInputOrder() throws {
        let model = Model(["id": 1, "title": "First Post"])
        let modelUpdate = Model(["id": 1, "title": "First Post V2"])
        let model2 = Model(["id": 2, "title": "Second Post"])
        let model2Update = Model(["id": 2, "title": "Second Post V2"])
        let collection = Collection<Model>([model, model2])
        let log = CollectionEventLog(collection, "update")
        collection.set([model2Update, modelUpdate])
        let changes = try #require(log.events.first?.changes)
        #expect(changes.merged.count == 2)
        #expect(changes.merged.first?["title"] == model2Update["title"])
        #expect(changes.merged.last?["title"] == modelUpdate["title"])
    }

    // Backbone: "#3711 - set's `update` event should not be triggered adding a model which already exists exactly alike"
    @Test func settingTheSameInstancesFiresNoUpdate() {
        let model = Model(["id": 1, "title": "First Post"])
        let collection = Collection<Model>([model])
        let log = CollectionEventLog(collection)
        collection.set([model])
        #expect(log.names.isEmpty)
    }

    // Backbone: "#3961 - add events sends options.index that correspond to wrong index"
    @Test func setsAddEventsHaveNoIndexWithoutAt() {
        let models = ["a", "b", "c", "d"].map { Model(["id": JSONValue($0)]) }
        let collection = Collection<Model>(models)
        var next = Array(models.dropFirst())
        next.append(Model(["id": "e"]))
        var indexes: [Int?] = []
        collection.on("add") { indexes.append($0.index) }
        collection.set(next)
        #expect(indexes == [nil])
        #expect(collection.pluck("id") == ["b", "c", "d", "e"])
    }

    // MARK: - Return values and validation

    // Keel: `set` returns the models for the input, in input order, without rejected ones.
    @Test func setReturnsModelsParallelToTheInput() throws {
        let collection = Collection<NotThree>([["id": 1], ["id": 2]])
        let present = try #require(collection.get(2))
        let result = collection.set([["id": 2], ["id": 3], ["id": 4]], options: UpdateOptions(validate: true))
        #expect(result.map(\.id) == [2, 4])
        #expect(result.first === present)
        #expect(collection.pluck("id") == [2, 4])
    }

    // MARK: - Parsing

    // Backbone: "`set` and model level `parse`"
    @Test func parsingSetMergesIntoPresentModels() throws {
        let model = Model(["id": 1])
        let collection = WrappedModelsCollection([model])
        try collection.set(parsing: ["models": [["model": ["id": 1]], ["model": ["id": 2]]]])
        #expect(collection.first === model)
        #expect(collection.count == 2)
    }

    // Backbone: "`set` data is only parsed once"
    @Test func setDataIsParsedOnce() throws {
        let collection = Collection<CountingParse>()
        // Keel: the default collection `parse` takes a list, so `{}` becomes `[{}]`.
        try collection.set(parsing: [[:]])
        let model = try #require(collection.first)
        #expect(model.parseCalls == 1)
        #expect(!model.sawParsedMark)
        #expect(model["parsed"] == true)
    }

    // Keel: a parsed merge runs the present model's `parse` once.
    @Test func parsedMergeRunsTheModelsParseOnce() throws {
        let collection = Collection<CountingParse>([["id": 1]])
        let model = try #require(collection.first)
        try collection.set(parsing: [["id": 1, "title": "x"]])
        #expect(model.parseCalls == 1)
        #expect(model["title"] == "x")
        #expect(model["parsed"] == true)
    }

    // Backbone: "#1915 - `parse` data in the right order in `set`"
    @Test func collectionParseSeesTheWholeResponseFirst() throws {
        let collection = EnvelopeCollection()
        try collection.set(parsing: ["status": "ok", "data": [["id": 1]]])
        #expect(collection.seenStatus == "ok")
        #expect(collection.pluck("id") == [1])
    }

    // Backbone: "#1939 - `parse` is passed `options`"
    @Test func collectionParseReceivesTheCallsOptions() throws {
        // Keel: Backbone checks `options.xhr` after a fetch; the options of any call reach `parse`.
        let collection = EnvelopeCollection()
        try collection.set(
            parsing: ["status": "ok", "data": []],
            options: UpdateOptions(custom: ["someHeader": "headerValue"])
        )
        #expect(collection.seenHeader == "headerValue")
    }

    // Backbone: "#3871 - falsy parse result creates empty collection"
    @Test func parseFindingNothingThrowsAndAnEmptyListEmpties() {
        // Keel: `nil` from `parse` is an error that leaves the collection as it was …
        let nothing = NothingCollection([["id": 1]])
        #expect(throws: CollectionError.unparsableResponse("")) { try nothing.set(parsing: "") }
        #expect(nothing.pluck("id") == [1])
        // … while an empty list empties it, as Backbone's falsy result does.
        let empty = EmptyCollection([["id": 1]])
        #expect(throws: Never.self) { try empty.set(parsing: "") }
        #expect(empty.isEmpty)
    }

    // Backbone: "#2612 - nested `parse` works with `Collection#set`"
    @Test func nestedParseWorksThroughSet() throws {
        let data: Attributes = [
            "name": "JobName", "id": 1,
            "items": [
                ["id": 1, "name": "Sub1", "subItems": [["id": 1, "subName": "One"], ["id": 2, "subName": "Two"]]],
                [
                    "id": 2, "name": "Sub2",
                    "subItems": [["id": 3, "subName": "Three"], ["id": 4, "subName": "Four"]],
                ],
            ],
        ]
        let newData: Attributes = [
            "name": "NewJobName", "id": 1,
            "items": [
                [
                    "id": 1, "name": "NewSub1",
                    "subItems": [["id": 1, "subName": "NewOne"], ["id": 2, "subName": "NewTwo"]],
                ],
                [
                    "id": 2, "name": "NewSub2",
                    "subItems": [["id": 3, "subName": "NewThree"], ["id": 4, "subName": "NewFour"]],
                ],
            ],
        ]

        let job = Job(data, options: ChangeOptions(parse: true))
        #expect(job["name"] == "JobName")
        #expect(job["items"] == nil)
        #expect(job.items.at(0)?["name"] == "Sub1")
        #expect(job.items.count == 2)
        #expect(job.items.get(1)?.subItems.get(1)?["subName"] == "One")
        #expect(job.items.get(2)?.subItems.get(3)?["subName"] == "Three")

        job.set(job.parse(.object(newData), options: ChangeOptions(parse: true)) ?? [:])
        #expect(job["name"] == "NewJobName")
        #expect(job.items.at(0)?["name"] == "NewSub1")
        #expect(job.items.count == 2)
        #expect(job.items.get(1)?.subItems.get(1)?["subName"] == "NewOne")
        #expect(job.items.get(2)?.subItems.get(3)?["subName"] == "NewThree")
    }

    // Keel: an unparsable response throws before any change or event.
    @Test func unparsableSetThrowsAndKeepsTheModels() {
        let collection = Collection<Model>([["id": 1]])
        let log = CollectionEventLog(collection)
        #expect(throws: CollectionError.self) { try collection.set(parsing: [1, 2]) }
        #expect(collection.pluck("id") == [1])
        #expect(log.names.isEmpty)
    }
}
