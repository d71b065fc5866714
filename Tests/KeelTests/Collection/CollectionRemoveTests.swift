import Keel
import Testing

struct CollectionRemoveTests {
    // MARK: - Backbone's remove tests

    // Backbone: "remove"
    @Test func removeReportsIndexAndReturnsOnlyRemovedModels() {
        let fixture = LabelledCollectionFixture()
        let col = fixture.col
        var removed: JSONValue?
        var indexes: [Int?] = []
        col.on("remove") { event in
            removed = event.model?["label"]
            indexes.append(event.index)
            // #3693: the model can no longer be found in the collection.
            if let model = event.model { #expect(col.get(model) == nil) }
        }
        var result = col.remove(fixture.d)
        #expect(removed == "d")
        #expect(indexes == [3])
        #expect(result === fixture.d)
        // Removing d again removes nothing.
        result = col.remove(fixture.d)
        #expect(result == nil)
        #expect(indexes == [3])
        #expect(col.count == 3)
        #expect(col.first === fixture.a)
        col.off()
        var list = col.remove([fixture.c, fixture.d])
        #expect(list.cidsInOrder == [fixture.c.cid])
        list = col.remove([fixture.c, fixture.b])
        #expect(list.cidsInOrder == [fixture.b.cid])
        list = col.remove([Model]())
        #expect(list.isEmpty)
    }

    // Backbone: "shift and pop"
    @Test func shiftAndPopRemoveTheEnds() {
        let collection = Collection<Model>([["a": "a"], ["b": "b"], ["c": "c"]])
        #expect(collection.shift()?["a"] == "a")
        #expect(collection.pop()?["c"] == "c")
        #expect(collection.count == 1)
        #expect(collection.pop()?["b"] == "b")
        #expect(collection.pop() == nil)
        #expect(collection.shift() == nil)
    }

    // Backbone: "remove in multiple collections"
    @Test func removingAnotherInstanceRemovesTheModelWithItsID() {
        let data: Attributes = ["id": 5, "title": "Othello"]
        var passed = false
        let m1 = Model(data)
        let m2 = Model(data)
        m2.on("remove") { _ in passed = true }
        let col1 = Collection<Model>([m1])
        let col2 = Collection<Model>([m2])
        #expect(m1 !== m2)
        #expect(col1.count == 1)
        #expect(col2.count == 1)
        col1.remove(m1)
        #expect(!passed)
        #expect(col1.isEmpty)
        col2.remove(m1)
        #expect(col2.isEmpty)
        #expect(passed)
    }

    // Backbone: "remove same model in multiple collection"
    @Test func removingFromOneCollectionKeepsTheOwningCollection() {
        let m = Model(["id": 5, "title": "Othello"])
        var modelEvents: [String] = []
        m.on("remove") { event in
            #expect(event.model === m)
            modelEvents.append(event.collection?.cid ?? "none")
        }
        let col1 = Collection<Model>([m])
        var col1Events = 0
        col1.on("remove") { event in
            #expect(event.model === m)
            #expect(event.collection === col1)
            col1Events += 1
        }
        let col2 = Collection<Model>([m])
        var col2Events = 0
        col2.on("remove") { event in
            #expect(event.model === m)
            #expect(event.collection === col2)
            col2Events += 1
        }
        #expect(m.collection === col1)
        col2.remove(m)
        #expect(col2.isEmpty)
        #expect(col1.count == 1)
        #expect(modelEvents == [col2.cid])
        #expect(m.collection === col1)
        col1.remove(m)
        #expect(m.collection == nil)
        #expect(col1.isEmpty)
        #expect(modelEvents == [col2.cid, col1.cid])
        #expect(col1Events == 1)
        #expect(col2Events == 1)
    }

    // Backbone: "#574, remove its own reference to the .models array."
    @Test func removingTheCollectionsOwnModelsEmptiesIt() {
        let collection = Collection<Model>([["id": 1], ["id": 2], ["id": 3], ["id": 4], ["id": 5], ["id": 6]])
        #expect(collection.count == 6)
        collection.remove(collection.models)
        #expect(collection.isEmpty)
    }

    // Backbone: "removing models triggers `update` event once"
    @Test func removingSeveralModelsFiresOneUpdate() {
        let collection = Collection<Model>([["id": 1], ["id": 2], ["id": 3]])
        let log = CollectionEventLog(collection, "update")
        // Keel: `remove([...])` takes models; other instances with the same id match.
        collection.remove([Model(["id": 1]), Model(["id": 2])])
        #expect(log.events.count == 1)
        #expect(collection.pluck("id") == [3])
    }

    // Backbone: "remove does not trigger `update` when nothing removed"
    @Test func removingNothingFiresNoUpdate() {
        let collection = Collection<Model>([["id": 1], ["id": 2]])
        let log = CollectionEventLog(collection)
        collection.remove([Model(["id": 3])])
        collection.remove(3)
        collection.remove(Model(["id": 4]))
        #expect(log.names.isEmpty)
        #expect(collection.count == 2)
    }

    // Backbone: "#3711 - remove's `update` event returns one removed model"
    @Test func removesUpdateListsTheRemovedModel() throws {
        let model = Model(["id": 1, "title": "First Post"])
        let collection = Collection<Model>([model])
        let log = CollectionEventLog(collection, "update")
        collection.remove(model)
        let changes = try #require(log.events.first?.changes)
        #expect(changes.added.isEmpty)
        #expect(changes.merged.isEmpty)
        #expect(changes.removed.cidsInOrder == [model.cid])
    }

    // Backbone: "#3711 - remove's `update` event returns multiple removed models"
    @Test func removesUpdateListsEveryRemovedModel() throws {
        let model = Model(["id": 1, "title": "First Post"])
        let model2 = Model(["id": 2, "title": "Second Post"])
        let collection = Collection<Model>([model, model2])
        let log = CollectionEventLog(collection, "update")
        collection.remove([model, model2])
        #expect(log.events.count == 1)
        let changes = try #require(log.events.first?.changes)
        #expect(changes.added.isEmpty)
        #expect(changes.merged.isEmpty)
        #expect(changes.removed.count == 2)
        #expect(Set(changes.removed.cidsInOrder) == [model.cid, model2.cid])
    }

    // MARK: - Identification

    // Keel: `remove` accepts an id, a client id, attributes, the model or another instance.
    @Test func removeAcceptsEveryFormGetAccepts() {
        let fixture = LabelledCollectionFixture()
        let col = fixture.col
        #expect(col.remove(3) === fixture.a)
        #expect(col.remove(JSONValue(fixture.b.cid)) === fixture.b)
        #expect(col.remove(["id": 1]) === fixture.c)
        #expect(col.remove(fixture.d.clone()) === fixture.d)
        #expect(col.isEmpty)
        #expect(col.remove(nil) == nil)
    }

    // Keel: a model listed twice is removed once.
    @Test func duplicatesInTheInputAreRemovedOnce() {
        let fixture = LabelledCollectionFixture()
        let log = CollectionEventLog(fixture.col, "remove")
        let removed = fixture.col.remove([fixture.b, fixture.b, fixture.b.clone()])
        #expect(removed.cidsInOrder == [fixture.b.cid])
        #expect(log.events.count == 1)
        #expect(fixture.col.count == 3)
    }

    // Keel: `silent` suppresses `remove` and `update` but still detaches the model.
    @Test func silentRemoveFiresNothing() {
        let fixture = LabelledCollectionFixture()
        let log = CollectionEventLog(fixture.col)
        var modelEvents = 0
        fixture.a.on("remove") { _ in modelEvents += 1 }
        fixture.col.remove([fixture.a, fixture.c], silent: true)
        #expect(log.names.isEmpty)
        #expect(modelEvents == 0)
        #expect(fixture.a.collection == nil)
        #expect(fixture.col.pluck("label") == ["b", "d"])
    }

    // MARK: - One-pass removal

    // Keel: the model's own handlers run before the collection's, and then `update`.
    @Test func removeFiresOnTheModelThenTheCollectionThenUpdate() {
        let fixture = LabelledCollectionFixture()
        var order: [String] = []
        fixture.b.on("remove") { _ in order.append("model remove") }
        fixture.col.on("remove") { _ in order.append("collection remove") }
        fixture.col.on("update") { _ in order.append("update") }
        fixture.col.remove(fixture.b)
        #expect(order == ["model remove", "collection remove", "update"])
    }

    // Keel: during the `remove` events of one call, the collection already reflects every
    // removal of the call; `index` is the position each model had at its turn (as Backbone).
    @Test func removeEventsSeeTheFinalCollectionAndBackbonesIndexes() throws {
        let fixture = LabelledCollectionFixture()
        let col = fixture.col
        var seen: [(label: JSONValue?, index: Int?, count: Int, labels: [JSONValue?])] = []
        col.on("remove") { event in
            seen.append((event.model?["label"], event.index, col.count, col.pluck("label")))
        }
        let removed = col.remove([fixture.c, fixture.a, fixture.d])
        #expect(removed.cidsInOrder == [fixture.c.cid, fixture.a.cid, fixture.d.cid])
        #expect(seen.map(\.label) == ["c", "a", "d"])
        // One by one: c is at 2 in [a b c d], a at 0 in [a b d], d at 1 in [b d].
        #expect(seen.map(\.index) == [2, 0, 1])
        #expect(seen.map(\.count) == [1, 1, 1])
        #expect(seen.allSatisfy { $0.labels == ["b"] })
    }

    // Keel: the indexes match a one-by-one removal for any order of the input.
    @Test(arguments: [1, 2, 7, 50, 199])
    func removeIndexesMatchOneByOneRemoval(seed: Int) throws {
        let count = 200
        let collection = Collection<Model>((0..<count).map { ["id": .int($0)] as Attributes })
        var generator = CollectionTestRandom(seed: UInt64(seed))
        var victims = Array(collection.models.shuffled(using: &generator).prefix(seed % 2 == 0 ? 120 : 37))
        victims.append(contentsOf: victims.prefix(5))  // duplicates are ignored

        // The reference: Backbone's loop, one splice per model.
        var simulated = collection.models.map(\.cid)
        var expected: [(cid: String, index: Int)] = []
        for model in victims {
            guard let index = simulated.firstIndex(of: model.cid) else { continue }
            simulated.remove(at: index)
            expected.append((model.cid, index))
        }

        var actual: [(cid: String, index: Int?)] = []
        collection.on("remove") { event in actual.append((event.model?.cid ?? "", event.index)) }
        let removed = collection.remove(victims)
        #expect(removed.cidsInOrder == expected.map(\.cid))
        #expect(actual.map(\.cid) == expected.map(\.cid))
        #expect(actual.map(\.index) == expected.map(\.index))
        #expect(collection.cidsInOrder == simulated)
        for model in removed {
            #expect(collection.get(model) == nil)
            #expect(model.collection == nil)
        }
    }

    // Keel: a handler that removes another model during a `remove` event works on the final state.
    @Test func removingFromARemoveHandler() {
        let fixture = LabelledCollectionFixture()
        let col = fixture.col
        col.once("remove") { _ in col.remove(fixture.d) }
        col.remove([fixture.a, fixture.b])
        #expect(col.pluck("label") == ["c"])
        #expect(fixture.d.collection == nil)
    }
}
