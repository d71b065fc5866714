import Testing

@testable import Keel

/// Sets its id to 99 when it is built.
private final class RenumberedOnInit: Model {
    override func initialize(_ attributes: Attributes, options: ChangeOptions) {
        set(["id": 99])
    }
}

/// Identifies models by `type` and `id` together.
private final class TypedIDs: Collection<Model> {
    override func modelID(for attributes: Attributes, idAttribute: String) -> JSONValue? {
        guard let type = attributes["type"]?.stringValue, let id = attributes["id"] else { return nil }
        return .string("\(type)-\(id)")
    }
}

/// The `add` and `remove` events that `set`, `add` and `remove` fire on their models, and the
/// indexes they fill: the events are built only when some handler would receive them, and a
/// model the collection builds is indexed by its cached id unless a subclass decides ids.
struct CollectionModelEventAudienceTests {
    // MARK: - add

    @Test func anAllHandlerOfTheCollectionReceivesEveryAddWithItsIndex() {
        let collection = Collection<Model>([["id": 0]])
        let log = CollectionEventLog(collection)
        collection.add([["id": 1], ["id": 2]], at: 0)
        #expect(log.names == ["add", "add", "update"])
        #expect(log.events(named: "add").map { $0.model?.id } == [1, 2])
        #expect(log.events(named: "add").map(\.index) == [0, 1])
        #expect(log.events(named: "add").allSatisfy { $0.collection === collection })
    }

    @Test func aModelsOwnAddHandlerRunsWhenTheCollectionHasNone() throws {
        let collection = Collection<Model>()
        let model = Model(["id": 1])
        var received: [Event] = []
        model.on("add") { received.append($0) }
        collection.add([Model(["id": 0]), model])
        #expect(received.count == 1)
        #expect(received.first?.collection === collection)
        #expect(received.first?.model === model)
    }

    @Test func aCollectionAddHandlerRegisteredDuringTheAddsReceivesTheLaterOnes() {
        let collection = Collection<Model>()
        let first = Model(["id": 1])
        var received: [JSONValue?] = []
        first.on("add") { _ in
            collection.on("add") { received.append($0.model?.id) }
        }
        collection.add([first, Model(["id": 2]), Model(["id": 3])])
        #expect(received == [1, 2, 3])
    }

    @Test func anAddListenerOfAnotherObjectReceivesTheAdds() {
        let collection = Collection<Model>()
        let listener = EventEmitter()
        var received: [JSONValue?] = []
        listener.listenTo(collection, "add") { received.append($0.model?.id) }
        collection.add([["id": 1], ["id": 2]])
        #expect(received == [1, 2])
    }

    @Test func aSilentAddFiresNothingAndAnUnheardAddStillUpdates() {
        let collection = Collection<Model>()
        var updates: [CollectionChanges] = []
        collection.on("update") { if let changes = $0.changes { updates.append(changes) } }
        collection.add([["id": 1]], silent: true)
        #expect(updates.isEmpty)
        collection.add([["id": 2], ["id": 3]])
        #expect(updates.count == 1)
        #expect(updates.first?.added.map(\.id) == [2, 3])
        #expect(collection.map(\.id) == [1, 2, 3])
    }

    // MARK: - Indexes of built models

    @Test func builtModelsAreFoundByIDAndClientIDAndDuplicatesAreAddedOnce() throws {
        let collection = Collection<Model>()
        let added = collection.add([["id": 1, "t": "a"], ["id": 2], ["id": 1, "t": "b"], ["t": "no id"]])
        #expect(collection.length == 3)
        #expect(added.count == 4)
        #expect(added[0] === added[2])
        let first = try #require(collection.get(1))
        #expect(first["t"] == "a")
        #expect(collection.get(.string(first.cid)) === first)
        #expect(collection.get(.string(added[3].cid)) === added[3])
        #expect(collection.get(2) === added[1])
    }

    @Test func aNullIDIsNotIndexed() {
        let collection = Collection<Model>()
        collection.add([["id": .null], ["id": .null]])
        #expect(collection.length == 2)
        #expect(collection.get(.null) == nil)
    }

    @Test func aModelIsIndexedByTheIDItHasAfterItsInitialize() {
        let collection = Collection<RenumberedOnInit>()
        let model = collection.add(["id": 1])
        #expect(model?.id == 99)
        #expect(collection.get(99) === model)
        #expect(collection.get(1) == nil)
    }

    @Test func aSubclassThatDecidesIDsIndexesBuiltModelsByItsModelID() {
        let collection = TypedIDs()
        collection.add([["type": "a", "id": 1], ["type": "b", "id": 1]])
        #expect(collection.length == 2)
        #expect(collection.get("a-1")?["type"] == "a")
        #expect(collection.get(["type": "b", "id": 1])?["type"] == "b")
        #expect(collection.get(1) == nil)
        collection.add(["type": "a", "id": 1, "extra": true], merge: true)
        #expect(collection.length == 2)
        #expect(collection.get("a-1")?["extra"] == true)
    }

    @Test func integerIDsCountingUpPastAFarOneKeepEveryModelFound() throws {
        let collection = Collection<Model>()
        collection.add((0..<10).map { ["id": .int($0)] })
        collection.add(["id": 40])
        collection.add((10..<41).map { ["id": .int($0)] })
        #expect(collection.length == 41)
        for id in 0..<41 { #expect(collection.get(.int(id))?.id == .int(id)) }
        let far = try #require(collection.get(40))
        #expect(collection.remove(40) === far)
        #expect(collection.get(40) == nil)
    }

    // MARK: - remove

    @Test func aSmartSetFiresRemoveWithBackbonesIndexesToAnAllHandler() {
        let collection = Collection<Model>((0..<6).map { ["id": .int($0)] })
        let log = CollectionEventLog(collection)
        collection.set([["id": 0], ["id": 2], ["id": 4], ["id": 6]])
        let removals = log.events(named: "remove")
        #expect(removals.map { $0.model?.id } == [1, 3, 5])
        #expect(removals.map(\.index) == [1, 2, 3])
        #expect(log.names == ["remove", "remove", "remove", "add", "sort", "update"])
        #expect(collection.map(\.id) == [0, 2, 4, 6])
    }

    @Test func aRemovedModelsOwnRemoveHandlerRunsWhenTheCollectionHasNone() throws {
        let collection = Collection<Model>((0..<4).map { ["id": .int($0)] })
        let model = try #require(collection.get(2))
        var received: [Event] = []
        model.on("remove") { received.append($0) }
        collection.set([["id": 0], ["id": 3]])
        #expect(received.count == 1)
        #expect(received.first?.index == 1)
        #expect(received.first?.collection === collection)
        #expect(model.collection == nil)
    }

    @Test func aCollectionRemoveHandlerRegisteredDuringTheRemovalsReceivesTheLaterOnes() throws {
        let collection = Collection<Model>((0..<4).map { ["id": .int($0)] })
        let first = try #require(collection.get(0))
        var received: [JSONValue?] = []
        first.on("remove") { _ in
            collection.on("remove") { received.append($0.model?.id) }
        }
        collection.remove([first, try #require(collection.get(1)), try #require(collection.get(2))])
        #expect(received == [0, 1, 2])
        #expect(collection.map(\.id) == [3])
    }

    @Test func removedModelsLeaveBothIndexes() throws {
        let collection = Collection<Model>((0..<4).map { ["id": .int($0)] })
        let removed = try #require(collection.get(1))
        collection.set([["id": 0], ["id": 2], ["id": 3]])
        #expect(collection.get(1) == nil)
        #expect(collection.get(.string(removed.cid)) == nil)
        #expect(collection.get(2)?.id == 2)
    }
}
