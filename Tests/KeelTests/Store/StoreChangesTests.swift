import Keel
import Testing

/// The store's unit of work: inserted, changed and deleted models listed before they are
/// saved, saved together, or discarded (SwiftData's `ModelContext`, Core Data's context).
struct StoreChangesTests {
    private func loaded() async throws -> (InMemorySync, Store, Collection<StoreTodo>) {
        let server = InMemorySync(records: [
            "/todos": [["id": 1, "title": "Milk", "done": false], ["id": 2, "title": "Eggs", "done": false]]
        ])
        let store = Store(sync: server)
        let todos = store.collection(StoreTodo.self)
        try await todos.fetch()
        return (server, store, todos)
    }

    @Test func aFreshlyLoadedStoreHasNoChanges() async throws {
        let (server, store, _) = try await loaded()
        #expect(!store.hasChanges)
        #expect(store.insertedModels.isEmpty && store.changedModels.isEmpty && store.deletedModels.isEmpty)
        #expect(server.requests.count == 1)
    }

    @Test func insertedChangedAndDeletedModelsAreListedBeforeTheyAreSaved() async throws {
        let (server, store, todos) = try await loaded()
        let bread = StoreTodo(["title": "Bread"])
        try store.insert(bread)
        let milk = try #require(todos.get(1))
        let eggs = try #require(todos.get(2))
        milk[StoreTodo.done] = true
        store.delete(eggs)
        #expect(store.hasChanges)
        #expect(store.insertedModels.map(\.cid) == [bread.cid])
        #expect(store.changedModels.map(\.cid) == [milk.cid])
        #expect(store.deletedModels.map(\.cid) == [eggs.cid])
        #expect(server.requests.count == 1)
    }

    @Test func anInsertedModelShowsInLiveQueriesBeforeItIsSaved() async throws {
        let (_, store, _) = try await loaded()
        let all = store.query(StoreTodo.self)
        try store.insert(StoreTodo(["title": "Bread"]))
        #expect(all.count == 3)
    }

    @Test func savingChangesCreatesUpdatesAndDestroysThenNothingIsPending() async throws {
        let (server, store, todos) = try await loaded()
        let bread = StoreTodo(["title": "Bread"])
        try store.insert(bread)
        let milk = try #require(todos.get(1))
        milk[StoreTodo.done] = true
        store.delete(try #require(todos.get(2)))
        let delivery = try await store.saveChanges()
        #expect(delivery == .oneByOne)
        #expect(server.requests.dropFirst().map(\.method) == [.create, .update, .delete])
        #expect(bread.id != nil)
        #expect(!store.hasChanges)
        #expect(server.records(at: "/todos").compactMap { $0["title"]?.stringValue }.sorted() == ["Bread", "Milk"])
        #expect(server.records(at: "/todos").first { $0["id"] == 1 }?["done"] == true)
        #expect(todos.get(2) == nil)
    }

    @Test func anInvalidModelStopsTheSaveBeforeAnythingIsSent() async throws {
        let (server, store, todos) = try await loaded()
        let invalid = RequiredTitleTodo(["title": ""])
        try store.insert(invalid)
        try #require(todos.get(1))[StoreTodo.done] = true
        await #expect(throws: SyncError.self) { try await store.saveChanges() }
        #expect(server.requests.count == 1)
        #expect(store.insertedModels.count == 1 && store.changedModels.count == 1)
    }

    @Test func aFailedRequestLeavesTheUnsentChangesPendingForARetry() async throws {
        let (server, store, todos) = try await loaded()
        let bread = StoreTodo(["title": "Bread"])
        try store.insert(bread)
        try #require(todos.get(1))[StoreTodo.done] = true
        server.failNext(with: .httpStatus(503, body: nil))
        await #expect(throws: SyncError.self) { try await store.saveChanges() }
        #expect(store.insertedModels.map(\.cid) == [bread.cid])
        try await store.saveChanges()
        #expect(!store.hasChanges && bread.id != nil)
    }

    @Test func rollbackRevertsChangedModelsDiscardsInsertedOnesAndUnmarksDeletedOnes() async throws {
        let (server, store, todos) = try await loaded()
        let all = store.query(StoreTodo.self)
        let bread = StoreTodo(["title": "Bread"])
        try store.insert(bread)
        let milk = try #require(todos.get(1))
        milk[StoreTodo.title] = "Oat milk"
        store.delete(try #require(todos.get(2)))
        var destroyed = false
        bread.on("destroy") { _ in destroyed = true }
        store.rollback()
        #expect(milk[StoreTodo.title] == "Milk" && milk.unsavedChanges == nil)
        #expect(destroyed && all.count == 2)
        #expect(!store.hasChanges)
        #expect(server.requests.count == 1)
    }

    @Test func deletingAnInsertedModelDiscardsItWithoutARequest() async throws {
        let (server, store, _) = try await loaded()
        let all = store.query(StoreTodo.self)
        let bread = StoreTodo(["title": "Bread"])
        try store.insert(bread)
        store.delete(bread)
        #expect(!store.hasChanges && all.count == 2)
        try await store.saveChanges()
        #expect(server.requests.count == 1)
    }

    @Test func insertingAModelWhoseIDIsHeldByAnotherInstanceThrows() async throws {
        let (_, store, _) = try await loaded()
        #expect(throws: IdentityMapError.self) { try store.insert(StoreTodo(["id": 1, "title": "Copy"])) }
    }
}

/// A todo whose title must not be empty.
final class RequiredTitleTodo: Model {
    override class var urlRoot: String? { "/required" }
    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        attributes["title"]?.stringValue?.isEmpty == false ? nil : ["title": ["can't be blank"]]
    }
}
