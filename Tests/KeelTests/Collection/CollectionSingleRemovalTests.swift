import Keel
import Testing

/// One model removed at a time (`remove(_:)`, `remove(id)`, `pop()`, `shift()`): a model
/// whose only handler is the collection's forwarder has its `remove` dispatched on the
/// collection directly, lent; these tests pin down what Backbone's
/// `model.trigger('remove', model, this, options)` does in every case around that.
struct CollectionSingleRemovalTests {
    // MARK: - The event

    @Test func aKeptRemoveEventHoldsItsModelAndCollection() {
        var kept: [Event] = []
        weak var weakModel: Model?
        weak var weakCollection: Collection<Model>?
        do {
            let collection = Collection<Model>([["id": 1, "title": "one"], ["id": 2, "title": "two"]])
            weakCollection = collection
            weakModel = collection.get(1)
            collection.on("remove") { kept.append($0) }
            collection.on("all") { kept.append($0) }
            collection.remove(1)
        }
        #expect(kept.map(\.name) == ["remove", "remove", "update"])
        // The copies the handlers kept retain what the lent event held.
        #expect(weakModel != nil)
        #expect(weakCollection != nil)
        #expect(kept.first?.model?["title"] == "one")
        #expect(kept.first?.index == 0)
        #expect(kept.first?.collection === weakCollection)
        #expect(kept.first?.model?.collection == nil)
        #expect(kept.first?.model === weakModel)
        kept.removeAll()
        #expect(weakModel == nil)
        #expect(weakCollection == nil)
    }

    @Test func theCollectionsRemoveHandlersRunBeforeItsAllHandlersWithTheIndex() {
        let fixture = LabelledCollectionFixture()
        var heard: [String] = []
        fixture.col.on("all") { heard.append("all \($0.name) \($0.index ?? -1)") }
        fixture.col.on("remove") { heard.append("remove \($0.index ?? -1)") }
        fixture.col.remove(fixture.c)
        #expect(heard == ["remove 2", "all remove 2", "all update -1"])
    }

    @Test func optionsReachTheCollectionsHandlers() {
        let fixture = LabelledCollectionFixture()
        var custom: [JSONObject] = []
        fixture.col.on("remove") { custom.append($0.options.custom) }
        fixture.col.remove(fixture.b, options: UpdateOptions(ChangeOptions(custom: ["source": "test"])))
        #expect(custom == [["source": "test"]])
    }

    @Test func aModelHandlerAddedDuringARemovalHearsTheNextRemovalFirst() {
        let fixture = LabelledCollectionFixture()
        var heard: [String] = []
        fixture.col.on("remove") { event in
            heard.append("collection \(event.model?["label"]?.stringValue ?? "")")
            if event.model === fixture.a {
                fixture.b.on("remove") { _ in heard.append("model b") }
            }
        }
        fixture.col.remove(fixture.a)
        fixture.col.remove(fixture.b)
        #expect(heard == ["collection a", "model b", "collection b"])
    }

    @Test func aHandlerRegisteredDuringTheDispatchDoesNotRunForIt() {
        let fixture = LabelledCollectionFixture()
        var heard: [String] = []
        fixture.col.once("remove") { _ in
            fixture.col.on("remove") { _ in heard.append("later remove") }
            fixture.col.on("all") { heard.append("later all \($0.name)") }
        }
        fixture.col.remove(fixture.a)
        #expect(heard == ["later all update"])
        fixture.col.remove(fixture.b)
        #expect(heard == ["later all update", "later remove", "later all remove", "later all update"])
    }

    @Test func aHandlerThatRemovesAnotherModelSeesBothGo() {
        let fixture = LabelledCollectionFixture()
        var indexes: [Int?] = []
        fixture.col.on("remove") { event in
            indexes.append(event.index)
            if event.model === fixture.a { fixture.col.remove(fixture.d) }
        }
        fixture.col.remove(fixture.a)
        #expect(indexes == [0, 2])
        #expect(fixture.col.pluck("label") == ["b", "c"])
        #expect(fixture.a.collection == nil)
        #expect(fixture.d.collection == nil)
    }

    @Test func aModelAddedBackByItsRemoveHandlerKeepsTheCollection() {
        let fixture = LabelledCollectionFixture()
        fixture.col.once("remove") { event in
            if let model = event.model { fixture.col.add(model) }
        }
        fixture.col.remove(fixture.b)
        #expect(fixture.col.pluck("label") == ["a", "c", "d", "b"])
        #expect(fixture.b.collection === fixture.col)
        #expect(fixture.col.get(2) === fixture.b)
    }

    @Test func aCollectionWithoutHandlersStillDetachesTheModel() {
        let fixture = LabelledCollectionFixture()
        #expect(fixture.col.remove(2) === fixture.b)
        #expect(fixture.b.collection == nil)
        #expect(fixture.col.get(2) == nil)
        var heard = 0
        fixture.col.on("change") { _ in heard += 1 }
        fixture.b.set(["label": "B"])
        #expect(heard == 0)
    }

    @Test func aModelWithHandlersOfItsOwnHearsItsRemoveAsBackboneOrdersThem() {
        let fixture = LabelledCollectionFixture()
        var heard: [String] = []
        // The model's `all` handlers run in registration order: the collection's forwarder,
        // registered when the model was added, before this one.
        fixture.c.on("all") { heard.append("model all \($0.name) \($0.index ?? -1)") }
        fixture.c.on("remove") { heard.append("model remove \($0.index ?? -1)") }
        fixture.col.on("remove") { heard.append("collection remove \($0.index ?? -1)") }
        fixture.col.remove(fixture.c)
        #expect(heard == ["model remove 2", "collection remove 2", "model all remove 2"])
        #expect(fixture.c.collection == nil)
    }

    // MARK: - The ends

    @Test(arguments: [3, 11, 42])
    func popShiftAndRemoveByIDMatchAnArray(seed: Int) {
        let count = 60
        let collection = Collection<Model>((0..<count).map { ["id": .int($0)] as Attributes })
        var reference = Array(0..<count)
        var indexes: [Int?] = []
        collection.on("remove") { indexes.append($0.index) }
        var expectedIndexes: [Int?] = []
        var generator = CollectionTestRandom(seed: UInt64(seed))
        while !reference.isEmpty {
            switch Int.random(in: 0..<4, using: &generator) {
            case 0:
                #expect(collection.pop()?.id == .int(reference.removeLast()))
                expectedIndexes.append(reference.count)
            case 1:
                #expect(collection.shift()?.id == .int(reference.removeFirst()))
                expectedIndexes.append(0)
            default:
                let position = Int.random(in: 0..<reference.count, using: &generator)
                #expect(collection.remove(.int(reference.remove(at: position)))?.id != nil)
                expectedIndexes.append(position)
            }
            #expect(collection.first?.id == reference.first.map(JSONValue.int))
            #expect(collection.last?.id == reference.last.map(JSONValue.int))
            #expect(collection.count == reference.count)
        }
        #expect(indexes == expectedIndexes)
        #expect(collection.pop() == nil)
        #expect(collection.shift() == nil)
    }
}
