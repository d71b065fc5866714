import Keel
import Testing

/// Accepts only even ids.
private final class Even: Model {
    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        guard let id = attributes["id"]?.intValue, id % 2 != 0 else { return nil }
        return ValidationError("odd")
    }
}

/// Rejects the id 3.
private final class NotThree: Model {
    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        attributes["id"] == 3 ? ValidationError("id can't be 3") : nil
    }
}

/// Valid only with `valid: true`.
private final class FlaggedValid: Model {
    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        attributes["valid"] == true ? nil : ValidationError("invalid")
    }
}

/// Adds one to `value` when parsing.
private final class Incrementing: Model {
    override func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? {
        guard var object = response.objectValue else { return nil }
        object["value"] = .int((object["value"]?.intValue ?? 0) + 1)
        return object
    }
}

/// Remembers which collection it belonged to while `initialize` ran.
private final class CollectionAware: Model {
    var collectionCIDAtInitialize: String?

    override func initialize(_ attributes: Attributes, options: ChangeOptions) {
        collectionCIDAtInitialize = collection?.cid
    }
}

/// Unwraps `{"model": {...}}` entries.
private final class UnwrappingCollection: Collection<Model> {
    override func parse(_ response: JSONValue, options: UpdateOptions) -> [Attributes]? {
        response.arrayValue?.compactMap { $0["model"]?.objectValue ?? $0.objectValue }
    }
}

struct CollectionAddTests {
    // MARK: - Basics

    // Backbone: "add"
    @Test func addFiresAddWithTheCallsOptionsAndLeavesOtherCollectionsAlone() throws {
        let fixture = LabelledCollectionFixture()
        let col = fixture.col
        let otherCol = fixture.otherCol
        let e = Model(["id": 10, "label": "e"])
        otherCol.add(e)
        var secondAdded = false
        otherCol.on("add") { _ in secondAdded = true }
        var added: JSONValue?
        var options: ChangeOptions?
        col.on("add") { event in
            added = event.model?["label"]
            options = event.options
        }
        col.add(e, options: UpdateOptions(custom: ["amazing": true]))
        #expect(added == "e")
        #expect(col.count == 5)
        #expect(col.last === e)
        #expect(otherCol.count == 1)
        #expect(!secondAdded)
        #expect(options?["amazing"] == true)

        let f = Model(["id": 20, "label": "f"])
        let g = Model(["id": 21, "label": "g"])
        let h = Model(["id": 22, "label": "h"])
        let atCol = Collection<Model>([f, g, h])
        #expect(atCol.count == 3)
        atCol.add(e, at: 1)
        #expect(atCol.count == 4)
        #expect(atCol.at(1) === e)
        #expect(atCol.last === h)

        // Keel: there are no holes (`undefined` entries); empty attributes build empty models.
        let coll = Collection<Model>([Attributes](repeating: [:], count: 2))
        var addCount = 0
        coll.on("add") { _ in addCount += 1 }
        coll.add([Model(), f, g])
        #expect(coll.count == 5)
        #expect(addCount == 3)
        coll.add([Attributes](repeating: [:], count: 4))
        #expect(coll.count == 9)
        #expect(addCount == 7)
    }

    // Backbone: "add multiple models"
    @Test func addInsertsABlockAtAnIndex() throws {
        let collection = Collection<Model>([["at": 0], ["at": 1], ["at": 9]])
        collection.add([["at": 2], ["at": 3], ["at": 4], ["at": 5], ["at": 6], ["at": 7], ["at": 8]], at: 2)
        for index in 0...5 {
            #expect(collection.at(index)?["at"] == .int(index))
        }
        #expect(collection.pluck("at") == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    }

    // Backbone: "add; at should have preference over comparator"
    @Test func atTakesPrecedenceOverTheComparator() {
        let collection = Collection<Model>(
            [["id": 2], ["id": 3]],
            comparator: .ordered { ($0.id?.intValue ?? 0) > ($1.id?.intValue ?? 0) }
        )
        collection.add(Model(["id": 1]), at: 1)
        #expect(collection.pluck("id") == [3, 1, 2])
    }

    // Backbone: "add; at should add to the end if the index is out of bounds"
    @Test func atBeyondTheEndAppends() {
        let collection = Collection<Model>([["id": 2], ["id": 3]])
        collection.add(Model(["id": 1]), at: 5)
        #expect(collection.pluck("id") == [2, 3, 1])
    }

    // Backbone: "add supports negative indexes"
    @Test func negativeAtCountsFromTheEnd() {
        let collection = Collection<Model>([["id": 1]])
        collection.add([["id": 2], ["id": 3]], at: -1)
        collection.add([["id": 2.5]], at: -2)
        collection.add([["id": 0.5]], at: -6)
        #expect(collection.pluck("id") == [0.5, 1, 2, 2.5, 3])
    }

    // Backbone: "#set accepts options.at as a string"
    @Test func atInsertsInTheMiddle() {
        // Keel: `at` is an `Int`, so there is no string to convert.
        let collection = Collection<Model>([["id": 1], ["id": 2]])
        collection.add([["id": 3]], at: 1)
        #expect(collection.pluck("id") == [1, 3, 2])
    }

    // MARK: - Duplicates and merging

    // Backbone: "can't add model to collection twice"
    @Test func duplicateIDsCollapseOnConstruction() {
        let collection = Collection<Model>([["id": 1], ["id": 2], ["id": 1], ["id": 2], ["id": 3]])
        #expect(collection.pluck("id") == [1, 2, 3])
    }

    // Backbone: "can't add different model with same id to collection twice"
    @Test func addingAnotherModelWithAPresentIDDoesNothing() {
        let collection = Collection<Model>()
        collection.unshift(["id": 101])
        collection.add(["id": 101])
        #expect(collection.count == 1)
    }

    // Backbone: "merge in duplicate models with {merge: true}"
    @Test func addMergesOnlyWhenAsked() {
        let collection = Collection<Model>()
        collection.add([["id": 1, "name": "Moe"], ["id": 2, "name": "Curly"], ["id": 3, "name": "Larry"]])
        collection.add(["id": 1, "name": "Moses"])
        #expect(collection.first?["name"] == "Moe")
        collection.add(["id": 1, "name": "Moses"], merge: true)
        #expect(collection.first?["name"] == "Moses")
        let log = CollectionEventLog(collection)
        collection.add(["id": 1, "name": "Tim"], merge: true, silent: true)
        #expect(collection.first?["name"] == "Tim")
        #expect(log.names.isEmpty)
    }

    // Keel: merging another instance copies its attributes but does not attach it (verified in Backbone).
    @Test func mergingAnInstanceReturnsThePresentModel() {
        let present = Model(["id": 1, "title": "old"])
        let collection = Collection<Model>([present])
        let other = Model(["id": 1, "title": "new"])
        let result = collection.add(other, merge: true)
        #expect(result === present)
        #expect(present["title"] == "new")
        #expect(other.collection == nil)
        #expect(collection.count == 1)
    }

    // Backbone: "multiple copies of the same model"
    @Test func repeatedInstancesAndIDsCollapse() {
        let collection = Collection<Model>()
        let model = Model()
        collection.add([model, model])
        #expect(collection.count == 1)
        collection.add([["id": 1], ["id": 1]])
        #expect(collection.count == 2)
        #expect(collection.last?.id == 1)
    }

    // Keel: a later duplicate of a model added in the same call is merged into it (verified in Backbone).
    @Test func laterDuplicateInOneCallMergesIntoTheNewModel() throws {
        let collection = Collection<Model>()
        var changes: CollectionChanges?
        collection.on("update") { changes = $0.changes }
        collection.set([["id": 1, "a": 1], ["id": 1, "a": 2]])
        #expect(collection.count == 1)
        #expect(collection.first?["a"] == 2)
        #expect(changes?.added.count == 1)
        #expect(changes?.merged.count == 1)
    }

    // MARK: - Several collections

    // Backbone: "add model to multiple collections"
    @Test func aModelInSeveralCollectionsKeepsItsFirstCollection() {
        let m = Model(["id": 10, "label": "m"])
        let col1 = Collection<Model>()
        let col2 = Collection<Model>()
        var modelEvents: [String] = []
        m.on("add") { event in
            #expect(event.model === m)
            modelEvents.append(event.collection?.cid ?? "none")
        }
        var col1Events = 0
        col1.on("add") { event in
            #expect(event.model === m)
            #expect(event.collection === col1)
            col1Events += 1
        }
        var col2Events = 0
        col2.on("add") { event in
            #expect(event.model === m)
            #expect(event.collection === col2)
            col2Events += 1
        }
        col1.add(m)
        #expect(m.collection === col1)
        col2.add(m)
        #expect(m.collection === col1)
        #expect(modelEvents == [col1.cid, col2.cid])
        #expect(col1Events == 1)
        #expect(col2Events == 1)
    }

    // MARK: - Parsing

    // Backbone: "add model with parse"
    @Test func addWithParseRunsTheModelsParse() {
        let collection = Collection<Incrementing>()
        collection.add(["value": 1], options: UpdateOptions(parse: true))
        #expect(collection.at(0)?["value"] == 2)
    }

    // Backbone: "add with parse and merge"
    @Test func addWithParseAndMergeRunsTheCollectionsParseFirst() throws {
        let collection = UnwrappingCollection()
        collection.add(["id": 1])
        // Keel: `add(parsing:)` is `set(parsing:remove: false)`.
        try collection.set(parsing: [["model": ["id": 1, "name": "Alf"]]], remove: false, merge: true)
        #expect(collection.first?["name"] == "Alf")
        #expect(collection.count == 1)
    }

    // MARK: - Arguments and construction

    // Backbone: "add does not alter arguments"
    @Test func addDoesNotAlterItsArguments() {
        let attributes: Attributes = [:]
        let models = [attributes]
        Collection<Model>().add(models)
        #expect(models.count == 1)
        #expect(models[0] == attributes)
    }

    // Backbone: "#714: access `model.collection` in a brand new model."
    @Test func newModelSeesItsCollectionDuringInitialize() throws {
        // Keel: Backbone checks this through `create` (sync, deferred); `add` builds the model the same way.
        let collection = Collection<CollectionAware>()
        let model = try #require(collection.add(["prop": "value"]))
        #expect(model.collectionCIDAtInitialize == collection.cid)
        #expect(model.collection === collection)
        #expect(model["prop"] == "value")
    }

    // MARK: - Validation

    // Backbone: "add and remove return values"
    @Test func addAndRemoveReturnWhatTheyDid() throws {
        let collection = Collection<Even>()
        var list = collection.add([["id": 2], ["id": 4]], options: UpdateOptions(validate: true))
        #expect(list.count == 2)
        #expect(list.last === collection.last)
        #expect(list.last?.id == 4)

        list = collection.add([["id": 3], ["id": 6]], options: UpdateOptions(validate: true))
        #expect(collection.count == 3)
        // Keel: rejected models are left out of the result (Backbone puts `false` in their place).
        #expect(list.count == 1)
        #expect(list.first?.id == 6)

        let result = collection.add(["id": 6])
        #expect(result?.cid == list.first?.cid)

        let removed = collection.remove(["id": 6])
        #expect(collection.count == 2)
        #expect(removed?.id == 6)

        // Keel: `remove([...])` takes models; other instances with the same id match.
        let removedList = collection.remove([Even(["id": 2]), Even(["id": 8])])
        #expect(collection.count == 1)
        #expect(removedList.count == 1)
        #expect(removedList.first?.id == 2)
    }

    // Backbone: "#861, adding models to a collection which do not pass validation, with validate:true"
    @Test func validateTrueDropsInvalidModelsAndFiresInvalid() throws {
        let collection = Collection<NotThree>()
        var invalid: [Event] = []
        collection.on("invalid") { invalid.append($0) }
        collection.add(
            [["id": 1], ["id": 2], ["id": 3], ["id": 4], ["id": 5], ["id": 6]],
            options: UpdateOptions(validate: true)
        )
        #expect(collection.pluck("id") == [1, 2, 4, 5, 6])
        #expect(invalid.count == 1)
        let event = try #require(invalid.first)
        #expect(event.collection === collection)
        #expect(event.validationError == ValidationError("id can't be 3"))
        #expect(event.options.validate == true)
        // Keel: the singular form returns `nil` for a rejected model.
        #expect(collection.add(["id": 3], options: UpdateOptions(validate: true)) == nil)
        #expect(invalid.count == 2)
    }

    // Backbone: "Invalid models are discarded with validate:true."
    @Test func validInstanceIsProxiedWhileInvalidAttributesAreDropped() {
        let collection = Collection<FlaggedValid>()
        var testEvents = 0
        collection.on("test") { _ in testEvents += 1 }
        let model = FlaggedValid(["id": 1, "valid": true])
        // Keel: one call takes models or attributes, so this is two calls.
        collection.add([model], options: UpdateOptions(validate: true))
        collection.add([["id": 2]], options: UpdateOptions(validate: true))
        model.trigger("test")
        #expect(testEvents == 1)
        #expect(collection.get(JSONValue(model.cid)) != nil)
        #expect(collection.get(1) != nil)
        #expect(collection.get(2) == nil)
        #expect(collection.count == 1)
    }

    // Keel: without `validate: true`, invalid attributes still become models (as in Backbone).
    @Test func addWithoutValidateKeepsInvalidModels() {
        let collection = Collection<NotThree>()
        var invalid = 0
        collection.on("invalid") { _ in invalid += 1 }
        collection.add([["id": 3]])
        #expect(collection.count == 1)
        #expect(invalid == 0)
    }

    // Keel: a merge goes through the model's `set`, which validates by default.
    @Test func invalidMergeLeavesTheModelAndReportsThroughTheCollection() throws {
        let model = FlaggedValid(["id": 1, "valid": true, "title": "kept"])
        let collection = Collection<FlaggedValid>([model])
        let log = CollectionEventLog(collection)
        collection.add(["id": 1, "valid": false, "title": "lost"], merge: true)
        #expect(model["title"] == "kept")
        #expect(model["valid"] == true)
        #expect(model.validationError == ValidationError("invalid"))
        #expect(log.names.prefix(2) == ["invalid", "error"])
        #expect(log.events.first?.model === model)
    }

    // Keel: `silent` also silences the `invalid` event of a rejected model (Backbone still fires it).
    @Test func silentAddWithValidateFiresNoInvalid() {
        let collection = Collection<NotThree>()
        var invalid = 0
        collection.on("invalid") { _ in invalid += 1 }
        collection.add([["id": 3], ["id": 4]], silent: true, options: UpdateOptions(validate: true))
        #expect(collection.pluck("id") == [4])
        #expect(invalid == 0)
    }

    // MARK: - push and unshift

    // Backbone: "#1894 - Push should not trigger a sort"
    @Test func pushNeverSorts() {
        let collection = Collection<Model>([["id": 2]], comparator: .attribute("id"))
        var sorts = 0
        collection.on("sort") { _ in sorts += 1 }
        collection.push(["id": 1])
        #expect(sorts == 0)
        #expect(collection.pluck("id") == [2, 1])
    }

    // Backbone: "#2428 - push duplicate models, return the correct one"
    @Test func pushOfADuplicateReturnsThePresentModel() {
        let collection = Collection<Model>()
        let model1 = collection.push(["id": 101])
        let model2 = collection.push(["id": 101])
        #expect(model1 != nil)
        #expect(model2?.cid == model1?.cid)
        #expect(collection.count == 1)
    }

    // Keel: `unshift` inserts at the front without sorting.
    @Test func unshiftInsertsAtTheFront() {
        let collection = Collection<Model>([["id": 1]], comparator: .attribute("id"))
        let model = Model(["id": 2])
        collection.unshift(model)
        collection.unshift(["id": 3])
        #expect(collection.pluck("id") == [3, 2, 1])
    }

    // MARK: - Events

    // Backbone: "`add` overrides `set` flags"
    @Test func addInsideASetHandlerStillDoesNotRemove() {
        let collection = Collection<Model>()
        collection.once("add") { event in
            collection.add(["id": 2], options: UpdateOptions(event.options))
        }
        collection.set([["id": 1]])
        #expect(collection.count == 2)
    }

    // Backbone: "#3039 #3951: adding at index fires with correct at"
    @Test func addEventsCarryTheirIndexWhenAtIsGiven() {
        let collection = Collection<Model>([["val": 0], ["val": 4]])
        var events = 0
        collection.on("add") { event in
            events += 1
            #expect(event.model?["val"]?.intValue == event.index)
        }
        collection.add([["val": 1], ["val": 2], ["val": 3]], at: 1)
        collection.add(["val": 5], at: 10)
        #expect(events == 4)
    }

    // Backbone: "#3039: index is not sent when at is not specified"
    @Test func addEventsHaveNoIndexWithoutAt() {
        let collection = Collection<Model>([["at": 0]])
        var indexes: [Int?] = []
        collection.on("add") { indexes.append($0.index) }
        collection.add([["at": 1], ["at": 2]])
        #expect(indexes == [nil, nil])
    }

    // Backbone: "adding multiple models triggers `update` event once"
    @Test func addingSeveralModelsFiresOneUpdate() throws {
        let collection = Collection<Model>()
        let log = CollectionEventLog(collection, "update")
        collection.add([["id": 1], ["id": 2], ["id": 3]])
        #expect(log.events.count == 1)
        let changes = try #require(log.events.first?.changes)
        #expect(changes.added.map(\.id) == [1, 2, 3])
        #expect(changes.removed.isEmpty)
        #expect(changes.merged.isEmpty)
    }

    // Keel: when `add` handlers run, every model of the call is in place (as in Backbone).
    @Test func addHandlersSeeTheFinalCollection() {
        let collection = Collection<Model>([["id": 5]], comparator: .attribute("id"))
        var seen: [[JSONValue?]] = []
        collection.on("add") { _ in seen.append(collection.pluck("id")) }
        collection.add([["id": 9], ["id": 1]])
        #expect(seen == [[1, 5, 9], [1, 5, 9]])
        #expect(collection.map(\.id) == [1, 5, 9])
    }

    // Keel: one `add` fires the model events in this order (as Backbone's `set`).
    @Test func addFiresAddThenSortThenUpdate() {
        let collection = Collection<Model>([["id": 5]], comparator: .attribute("id"))
        let log = CollectionEventLog(collection)
        collection.add([["id": 9], ["id": 1]])
        #expect(log.names == ["add", "add", "sort", "update"])
        #expect(log.events.prefix(2).map { $0.model?.id } == [9, 1])
        log.clear()
        collection.add([["id": 7]], silent: true)
        #expect(log.names.isEmpty)
        #expect(collection.pluck("id") == [1, 5, 7, 9])
    }
}
