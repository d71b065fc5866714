@testable import Keel
import Testing

extension EventEmitter {
    /// The ids of the handlers registered on this emitter for each name but `all`.
    fileprivate var namedHandlerIDs: Set<Int> {
        var ids: Set<Int> = []
        let lists = existingState?.handlers.entries.withUnsafeBufferPointer { $0.map(\.value) } ?? []
        for list in lists { list.forEachInPlace { ids.insert($0.id) } }
        return ids
    }
}

/// A store and its identity map follow held models through handlers shared by every
/// model of a class, and stop when a model leaves the store or the store goes away.
@MainActor
struct StoreFollowingTests {
    @Test func heldModelsOfAClassShareTheStoresAndTheMapsHandlers() async throws {
        let store = Store.inMemory()
        let todos = store.collection(StoreTodo.self)
        todos.add((1...50).map { ["id": .int($0), "title": .string("t\($0)")] })
        let ids = Set(todos.models.map(\.namedHandlerIDs))
        #expect(ids.count == 1)
        // One shared registration for the map, one for the class.
        #expect(ids.first?.count == 2)
    }

    @Test func aModelReleasedByTheStoreNoLongerReachesItsQueries() async throws {
        let store = Store(sync: InMemorySync(records: ["/todos": [["id": 1, "title": "Milk", "done": false]]]))
        let loaded = store.query(StoreTodo.self, gcTime: .zero)
        try await loaded.load()
        let milk = try #require(loaded.models.first)
        _ = consume loaded
        store.clock.advance(by: .seconds(1))
        store.collectGarbage()
        #expect(store.models(StoreTodo.self).isEmpty)
        let open = store.query(StoreTodo.self, filter: .attribute("done", equals: false))
        milk["done"] = true
        milk["done"] = false
        #expect(open.count == 0)
        // Only the map's handlers remain on the released model.
        #expect(milk.namedHandlerIDs.count == 1)
    }

    @Test func aDestroyedModelLeavesTheStoreAndTheMap() async throws {
        let store = Store.inMemory()
        let milk = try await store.create(StoreTodo.self, ["title": "Milk"])
        let id = try #require(milk.id)
        let all = store.query(StoreTodo.self)
        #expect(all.count == 1)
        try await milk.destroy()
        #expect(all.count == 0)
        #expect(store.peek(StoreTodo.self, id: id) == nil)
        #expect(store.models(StoreTodo.self).isEmpty)
    }

    @Test func aModelThatOutlivesItsStoreKeepsWorking() async throws {
        var store: Store? = Store.inMemory()
        weak let weakStore = store
        let milk = try #require(store?.collection(StoreTodo.self).add(["id": 1, "title": "Milk"]))
        store = nil
        #expect(weakStore == nil)
        var changes = 0
        let counting = milk.on("change") { _ in changes += 1 }
        milk["title"] = "Oat milk"
        milk["id"] = 2
        milk.trigger(Event(name: "destroy", model: milk, options: ChangeOptions()))
        #expect(changes == 2)
        // The class's handlers left with the store; the map's, whose owner has gone, were
        // dropped by the model's `changeId` and `destroy`.
        #expect(milk.namedHandlerIDs == [counting.id])
        _ = weakStore
    }

    @Test func aModelTheMapNoLongerReferencesIsGoneFromIt() {
        let map = IdentityMap()
        var note: Model? = map.model(Model.self, collection: "/notes", attributes: ["id": 1])
        #expect(map.count == 1)
        note = nil
        #expect(map.count == 0)
        #expect(map.existingModel(in: "/notes", id: 1) == nil)
        let again = map.model(Model.self, collection: "/notes", attributes: ["id": 1, "title": "B"])
        #expect(map.existing(Model.self, id: 1, in: "/notes") === again)
        _ = note
    }

    @Test func aModelsNewIDMovesItsEntryThroughTheSharedHandler() {
        let map = IdentityMap()
        let first = map.model(Model.self, collection: "/notes", attributes: ["id": 1])
        let second = map.model(Model.self, collection: "/notes", attributes: ["id": 2])
        first["id"] = 3
        #expect(map.existing(Model.self, id: 3, in: "/notes") === first)
        #expect(map.existing(Model.self, id: 1, in: "/notes") == nil)
        #expect(map.existing(Model.self, id: 2, in: "/notes") === second)
        var errors = 0
        second.on("error") { _ in errors += 1 }
        second["id"] = 3
        #expect(errors == 1)
        #expect(map.existing(Model.self, id: 3, in: "/notes") === first)
    }
}
