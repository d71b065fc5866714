import Foundation
import Keel
import Testing

/// The store hands out models and collections wired to its backend and identity map, and
/// holds what they load.
struct StoreTests {
    @Test func aCollectionFetchLoadsModelsThatTheStoreHoldsAndFindReturnsTheSameInstance() async throws {
        let server = InMemorySync(records: ["/todos": [["id": 1, "title": "Milk"], ["id": 2, "title": "Eggs"]]])
        let store = Store(sync: server)
        let all = store.query(StoreTodo.self)
        #expect(all.isEmpty)

        try await store.collection(StoreTodo.self).fetch()
        #expect(all.map { $0[StoreTodo.title] } == ["Milk", "Eggs"])
        let milk = try #require(try await store.find(StoreTodo.self, id: 1))
        #expect(milk === all.first)
        #expect(store.peek(StoreTodo.self, id: 2) === all.last)
    }

    @Test func aCollectionKeepsWorkingAfterItsStoreIsReleased() async throws {
        let server = InMemorySync(records: ["/todos": [["id": 1, "title": "Milk"]]])
        let todos = Store(sync: server).collection(StoreTodo.self)
        try await todos.fetch()
        _ = try await todos.create(["title": "Eggs"])
        #expect(todos.map { $0[StoreTodo.title] } == ["Milk", "Eggs"])
    }

    @Test func findAnswersNilForAMissingRecord() async throws {
        let store = Store(sync: InMemorySync(records: ["/todos": [["id": 1, "title": "Milk"]]]))
        #expect(try await store.find(StoreTodo.self, id: 9) == nil)
    }

    @Test func aCreatedModelShowsInQueriesBeforeTheServerAnswersAndGetsItsID() async throws {
        let store = Store.inMemory()
        let open = store.query(StoreTodo.self, filter: .equals(StoreTodo.done, false))
        var wasNewWhenShown: Bool?
        open.on("add") { event in wasNewWhenShown = event.model?.isNew }
        let milk = try await store.create(StoreTodo.self, ["title": "Milk", "done": false])
        #expect(wasNewWhenShown == true)
        #expect(milk.id == 1)
        #expect(open.models.map(\.cid) == [milk.cid])
        #expect(store.peek(StoreTodo.self, id: 1) === milk)
    }

    @Test func aCreateWithWaitShowsOnlyOnceTheServerAgrees() async throws {
        let server = InMemorySync()
        let store = Store(sync: server)
        let all = store.query(StoreTodo.self)
        server.failNext(with: .httpStatus(500, body: nil))
        await #expect(throws: SyncError.self) {
            _ = try await store.create(StoreTodo.self, ["title": "Milk"], wait: true)
        }
        #expect(all.isEmpty)
        let milk = try await store.create(StoreTodo.self, ["title": "Milk"], wait: true)
        #expect(all.models.map(\.cid) == [milk.cid])
        #expect(store.peek(StoreTodo.self, id: milk.id ?? nil) === milk)
    }

    @Test func aRejectedCreateLeavesTheStoreAndItsQueries() async throws {
        let server = InMemorySync()
        let store = Store(sync: server)
        let all = store.query(StoreTodo.self)
        server.failNext(with: .httpStatus(422, body: ["title": ["is taken"]]))
        await #expect(throws: SyncError.self) { _ = try await store.create(StoreTodo.self, ["title": "Milk"]) }
        #expect(all.isEmpty)
        #expect(store.models(StoreTodo.self).isEmpty)
    }

    @Test func aDestroyedModelLeavesTheStore() async throws {
        let store = Store.inMemory()
        let milk = try await store.create(StoreTodo.self, ["title": "Milk"])
        let all = store.query(StoreTodo.self)
        try await milk.destroy()
        #expect(all.isEmpty)
        #expect(store.models(StoreTodo.self).isEmpty)
    }

    @Test func modelsOfAnotherClassStayOutOfAQuery() async throws {
        let store = Store.inMemory()
        let todos = store.query(StoreTodo.self)
        try await store.create(StoreTag.self, ["name": "home"])
        #expect(todos.isEmpty)
        #expect(store.models(StoreTag.self).count == 1)
    }

    @Test func aRegisteredPathReplacesTheURLRoot() async throws {
        let server = InMemorySync()
        let store = Store(sync: server)
        store.register(StoreTodo.self, path: "/lists/1/todos")
        try await store.create(StoreTodo.self, ["title": "Milk"])
        #expect(server.records(at: "/lists/1/todos").count == 1)
    }

    @Test func findReadsFromTheNewPathAfterTheClassIsRegisteredUnderAnother() async throws {
        let server = InMemorySync(records: [
            "/todos": [["id": 1, "title": "Milk"]],
            "/lists/1/todos": [["id": 1, "title": "Eggs"]],
        ])
        let store = Store(sync: server)
        let first = try #require(try await store.find(StoreTodo.self, id: 1))
        #expect(first[StoreTodo.title] == "Milk")
        store.register(StoreTodo.self, path: "/lists/1/todos")
        let second = try #require(try await store.find(StoreTodo.self, id: 1))
        #expect(second[StoreTodo.title] == "Eggs")
        #expect(second !== first)
    }
}
