import Keel
import Testing

/// A model whose `parse` unwraps a `note` envelope.
private final class EnvelopedNote: Model {
    override func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? {
        response["note"]?.objectValue ?? response.objectValue
    }
}

/// A model that rejects a title of `"bad"`.
private final class CheckedNote: Model {
    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        attributes["title"] == "bad" ? ["title": ["is bad"]] : nil
    }
}

/// Ids are unique per `type`: `{type: "a", id: 1}` and `{type: "b", id: 1}` are different models.
private final class TypedIDs: Collection<Model> {
    override func modelID(for attributes: Attributes, idAttribute: String) -> JSONValue? {
        guard let type = attributes["type"]?.stringValue, let id = attributes[idAttribute] else { return nil }
        return .string("\(type)-\(id)")
    }
}

/// `add` and `set` handle every kind of input as Backbone's `set` does.
///
/// They read an input of attribute maps or of models in place, look integer ids up where
/// they lie in the attributes, and keep one list while every input adds a model; the first
/// input that names a present model (or one added earlier in the same call) gives the added
/// and order lists their own copies. Each case checks the result, the models, and the `add`
/// and `update` events.
struct CollectionInputsTests {
    @Test func aDuplicateIDInOneAddIsAddedOnceAndReturnedForBothInputs() throws {
        let notes = Collection<Model>()
        let log = CollectionEventLog(notes, "add update")
        let result = notes.add([["id": 1, "title": "first"], ["id": 1, "title": "second"]])
        #expect(notes.length == 1)
        #expect(result.count == 2)
        #expect(result[0] === result[1])
        #expect(result[0]["title"] == "first")
        #expect(log.names == ["add", "update"])
        let changes = try #require(log.events(named: "update").first?.changes)
        #expect(changes.added.map(\.cid) == [result[0].cid])
        #expect(changes.merged.isEmpty)
    }

    @Test func aDuplicateIDInOneAddWithMergeMergesTheSecondIntoTheFirst() throws {
        let notes = Collection<Model>()
        let log = CollectionEventLog(notes, "update")
        let result = notes.add([["id": 1, "title": "first"], ["id": 1, "title": "second"]], merge: true)
        #expect(notes.length == 1)
        #expect(result[0]["title"] == "second")
        let changes = try #require(log.events.first?.changes)
        #expect(changes.added.map(\.id) == [1])
        #expect(changes.merged.map(\.id) == [1])
    }

    @Test func aPresentModelAmongNewInputsKeepsTheAddedListToTheNewOnes() throws {
        let notes = Collection<Model>([["id": 1, "title": "present"]])
        let present = try #require(notes.get(1))
        let log = CollectionEventLog(notes, "add update")
        let result = notes.add([["id": 5], ["id": 1, "title": "ignored"], ["id": 6]])
        #expect(result.map(\.id) == [5, 1, 6])
        #expect(result[1] === present)
        #expect(present["title"] == "present")
        #expect(notes.models.map(\.id) == [1, 5, 6])
        #expect(log.names == ["add", "add", "update"])
        let changes = try #require(log.events(named: "update").first?.changes)
        #expect(changes.added.map(\.id) == [5, 6])
        #expect(changes.merged.isEmpty)
    }

    @Test func aPresentModelFirstLeavesTheLaterNewOnesAdded() throws {
        let notes = Collection<Model>([["id": 1]])
        let log = CollectionEventLog(notes, "update")
        let result = notes.add([["id": 1], ["id": 2], ["id": 3]])
        #expect(result.map(\.id) == [1, 2, 3])
        let changes = try #require(log.events.first?.changes)
        #expect(changes.added.map(\.id) == [2, 3])
    }

    @Test func theSameNewModelTwiceInOneAddIsAddedOnce() throws {
        let notes = Collection<Model>()
        let note = Model(["title": "twice"])
        let log = CollectionEventLog(notes, "add update")
        let result = notes.add([note, note])
        #expect(notes.length == 1)
        #expect(result.count == 2 && result[0] === note && result[1] === note)
        #expect(log.names == ["add", "update"])
        let changes = try #require(log.events(named: "update").first?.changes)
        #expect(changes.added.count == 1)
    }

    @Test func anAddOfModelsMergesAPresentModelsIDOnlyWithMerge() {
        let notes = Collection<Model>([["id": 1, "title": "present"]])
        let other = Model(["id": 1, "title": "other"])
        notes.add([other])
        #expect(notes.length == 1)
        #expect(notes.get(1)?["title"] == "present")
        notes.add([other], merge: true)
        #expect(notes.get(1)?["title"] == "other")
        #expect(notes.get(1) !== other)
    }

    @Test func aSetOfOnlyNewModelsReplacesThePresentOnesInInputOrder() throws {
        let notes = Collection<Model>([["id": 1], ["id": 2]])
        let log = CollectionEventLog(notes)
        let result = notes.set([["id": 4], ["id": 3]])
        #expect(result.map(\.id) == [4, 3])
        #expect(notes.models.map(\.id) == [4, 3])
        #expect(log.names == ["remove", "remove", "add", "add", "sort", "update"])
        let changes = try #require(log.events(named: "update").first?.changes)
        #expect(changes.added.map(\.id) == [4, 3])
        #expect(changes.removed.map(\.id) == [1, 2])
    }

    @Test func aSetWithADuplicateKeepsTheOrderOfFirstAppearance() {
        let notes = Collection<Model>([["id": 1]])
        let result = notes.set([["id": 3], ["id": 2], ["id": 3], ["id": 1]])
        #expect(result.map(\.id) == [3, 2, 3, 1])
        #expect(notes.models.map(\.id) == [3, 2, 1])
    }

    @Test func aFloatingPointIDWithAnIntegerValueFindsTheModelWithThatIntegerID() {
        let notes = Collection<Model>([["id": 2, "title": "two"]])
        notes.add([["id": 2.0, "title": "merged"]], merge: true)
        #expect(notes.length == 1)
        #expect(notes.get(2)?["title"] == "merged")
    }

    @Test func stringAndNullIDsAreLookedUpAsBefore() {
        let notes = Collection<Model>()
        notes.add([["id": "a"], ["id": "a"], ["id": nil], ["id": nil], [:]])
        #expect(notes.length == 4)
        #expect(notes.get("a") != nil)
    }

    @Test func anIDAttributeOfTheModelClassIsReadFromEachInput() {
        final class Keyed: Model {
            override class var idAttribute: String { "_id" }
        }
        let keyed = Collection<Keyed>([["_id": 7, "id": 1]])
        keyed.add([["_id": 7, "id": 2, "title": "merged"]], merge: true)
        #expect(keyed.length == 1)
        #expect(keyed.get(7)?["title"] == "merged")
        #expect(keyed.get(1) == nil)
    }

    @Test func aSubclassThatDecidesIDsSeesEveryInput() {
        let typed = TypedIDs()
        typed.add([["type": "a", "id": 1], ["type": "b", "id": 1]])
        #expect(typed.length == 2)
        typed.add([["type": "a", "id": 1, "title": "merged"]], merge: true)
        #expect(typed.length == 2)
        #expect(typed.models[0]["title"] == "merged")
        #expect(typed.models[1]["title"] == nil)
    }

    // Backbone looks a present model up by the input as given, before the model's `parse`.
    @Test func parseRunsOnNewInputsAndOnMergedOnes() {
        let notes = Collection<EnvelopedNote>([["id": 1, "title": "old"]])
        let options = UpdateOptions(parse: true)
        notes.add(
            [["id": 1, "note": ["id": 1, "title": "merged"]], ["id": 2, "note": ["id": 2, "title": "new"]]],
            merge: true,
            options: options
        )
        #expect(notes.models.map(\.id) == [1, 2])
        #expect(notes.get(1)?["title"] == "merged")
        #expect(notes.get(2)?["title"] == "new")
    }

    @Test func aComparatorSortsTheAddedModelsOnceAfterTheirAddEvents() {
        let notes = Collection<Model>(comparator: .attribute("rank"))
        let log = CollectionEventLog(notes)
        notes.add([["id": 1, "rank": 3], ["id": 2, "rank": 1], ["id": 3, "rank": 2]])
        #expect(notes.models.map(\.id) == [2, 3, 1])
        #expect(log.names == ["add", "add", "add", "sort", "update"])
    }

    @Test func addingAtAnIndexInsertsTheNewModelsThereAndSkipsPresentOnes() {
        let notes = Collection<Model>([["id": 1], ["id": 2]])
        let log = CollectionEventLog(notes, "add")
        let result = notes.add([["id": 7], ["id": 1], ["id": 8]], at: 1)
        #expect(result.map(\.id) == [7, 1, 8])
        #expect(notes.models.map(\.id) == [1, 7, 8, 2])
        #expect(log.events.map(\.index) == [1, 2])
    }

    @Test func anInvalidInputAmongOthersIsLeftOutAndReported() {
        let notes = Collection<CheckedNote>([["id": 1, "title": "fine"]])
        let log = CollectionEventLog(notes, "invalid add update")
        let result = notes.add(
            [["id": 2, "title": "bad"], ["id": 1, "title": "bad"], ["id": 3, "title": "good"]],
            options: UpdateOptions(validate: true)
        )
        #expect(result.map(\.id) == [1, 3])
        #expect(notes.models.map(\.id) == [1, 3])
        #expect(log.names == ["invalid", "add", "update"])
    }

    @Test func modelsAddedOneCallAtATimeAreAllFoundByIDAndClientID() {
        let notes = Collection<Model>()
        var added: [Model] = []
        for id in 0..<300 {
            if let model = notes.add(["id": .int(id)]) { added.append(model) }
        }
        #expect(notes.length == 300)
        #expect(added.allSatisfy { notes.get($0.id ?? nil) === $0 && notes.get(JSONValue($0.cid)) === $0 })
        notes.remove(added[150])
        #expect(notes.get(150) == nil)
        #expect(notes.get(151) === added[151])
    }
}
