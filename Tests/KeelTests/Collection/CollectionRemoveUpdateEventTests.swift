import Keel
import Testing

/// The `update` event of `remove`, `pop` and `shift`, which a collection builds only when a
/// handler would run: one of its name, an `all` handler, or one registered while the
/// `remove` events ran.
struct CollectionRemoveUpdateEventTests {
    private static func numbered(_ count: Int) -> Collection<Model> {
        Collection<Model>((0..<count).map { ["id": .int($0)] })
    }

    @Test func anAllHandlerAloneSeesEachRemovalAndItsUpdate() {
        let collection = Self.numbered(6)
        var names: [String] = []
        var removedIDs: [[JSONValue?]] = []
        collection.on("all") { event in
            names.append(event.name)
            if let changes = event.changes { removedIDs.append(changes.removed.map(\.id)) }
        }
        collection.pop()
        collection.shift()
        collection.remove(3)
        #expect(names == ["remove", "update", "remove", "update", "remove", "update"])
        #expect(removedIDs == [[5], [0], [3]])
    }

    @Test func aCollectionListeningOnlyToRemoveStillReportsEveryIndex() {
        let collection = Self.numbered(10)
        var indexes: [Int?] = []
        collection.on("remove") { event in indexes.append(event.index) }
        collection.remove(4)
        collection.pop()
        collection.shift()
        collection.remove(7)
        collection.remove(4)
        #expect(indexes == [4, 8, 0, 5])
        #expect(collection.models.map(\.id) == [1, 2, 3, 5, 6, 8])
    }

    @Test func anUpdateHandlerAddedByARemoveHandlerSeesThatRemoval() {
        let collection = Self.numbered(5)
        var updates: [[JSONValue?]] = []
        collection.once("remove") { _ in
            collection.on("update") { event in updates.append(event.changes?.removed.map(\.id) ?? []) }
        }
        collection.remove(2)
        collection.shift()
        #expect(updates == [[2], [0]])
    }

    @Test func anUpdateHandlerAddedByARemoveHandlerSeesThatRemovalOfSeveralModels() {
        let collection = Self.numbered(5)
        var updates: [[JSONValue?]] = []
        collection.once("remove") { _ in
            collection.on("update") { event in updates.append(event.changes?.removed.map(\.id) ?? []) }
        }
        collection.remove([collection.get(1)!, collection.get(3)!])
        #expect(updates == [[1, 3]])
    }

    @Test func anUpdateHandlerAddedByTheModelsRemoveHandlerSeesThatRemoval() {
        let collection = Self.numbered(3)
        let model = collection.get(1)!
        var updates = 0
        model.on("remove") { _ in collection.on("update") { _ in updates += 1 } }
        collection.remove(model)
        #expect(updates == 1)
    }

    @Test func anotherEmittersListenToReceivesTheUpdate() {
        let collection = Self.numbered(4)
        let listener = EventEmitter()
        var updates = 0
        listener.listenTo(collection, "update") { _ in updates += 1 }
        collection.pop()
        collection.shift()
        collection.remove(2)
        #expect(updates == 3)
        listener.stopListening()
        collection.pop()
        #expect(updates == 3)
    }

    @Test func aRemovedUpdateHandlerNoLongerRuns() {
        let collection = Self.numbered(4)
        var updates = 0
        var removals = 0
        collection.on("update") { _ in updates += 1 }
        collection.on("remove") { _ in removals += 1 }
        collection.remove(1)
        collection.off("update")
        collection.remove(2)
        collection.shift()
        #expect(updates == 1)
        #expect(removals == 3)
    }

    @Test func aSilentRemovalFiresNoUpdateToItsHandlers() {
        let collection = Self.numbered(4)
        var names: [String] = []
        collection.on("all") { event in names.append(event.name) }
        collection.remove(1, silent: true)
        collection.remove([collection.get(2)!, collection.get(3)!], silent: true)
        #expect(names.isEmpty)
        #expect(collection.models.map(\.id) == [0])
    }
}
