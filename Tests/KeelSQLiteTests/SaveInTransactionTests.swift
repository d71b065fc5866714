import Foundation
import Keel
import KeelSQLite
import Testing

/// Several models saved through `SQLiteSync` in one transaction: `performInTransaction`
/// itself, and the store's `saveChanges` and `AtomicOperations` on top of it.
struct SaveInTransactionTests {
    final class List: Model {
        override class var urlRoot: String? { "/lists" }
    }

    final class Item: Model {
        static let list = BelongsTo<List>("list")
        override class var urlRoot: String? { "/items" }
        override class var relations: [any Relation] { [list] }
    }

    @Test func aLinkGivesALaterRequestTheIdOfAnEarlierCreate() async throws {
        let sqlite = try SQLiteSync.inMemory()
        try await sqlite.send(.create, "/lists", body: ["name": "Old"])
        let responses = try await sqlite.performInTransaction(
            [
                SyncRequest(method: .create, url: URL(filePath: "/lists"), body: ["name": "Groceries"]),
                SyncRequest(method: .create, url: URL(filePath: "/items"), body: ["item": ["title": "Milk"]]),
            ],
            links: [RequestLink(request: 1, keyPath: ["item", "list_id"], source: 0)]
        )
        #expect(responses.count == 2)
        #expect(responses[1].body?["item"]?["list_id"] == 2)
    }

    @Test func aFailingRequestRollsBackTheWholeTransaction() async throws {
        let sqlite = try SQLiteSync.inMemory()
        await #expect(throws: SyncError.self) {
            try await sqlite.performInTransaction(
                [
                    SyncRequest(method: .create, url: URL(filePath: "/lists"), body: ["name": "Groceries"]),
                    SyncRequest(method: .delete, url: URL(filePath: "/lists/99")),
                ],
                links: []
            )
        }
        #expect(try sqlite.records(at: "/lists").isEmpty)
    }

    @Test func saveChangesCreatesAParentAndItsChildInOneTransaction() async throws {
        let sqlite = try SQLiteSync.inMemory()
        let store = Store(sync: sqlite)
        let groceries = List(["name": "Groceries"])
        let milk = Item(["title": "Milk"])
        milk[Item.list] = groceries
        try store.insert(milk)
        try store.insert(groceries)
        let delivery = try await store.saveChanges()
        guard case .inOneTransaction(let responses) = delivery else {
            Issue.record("expected one transaction, got \(delivery)")
            return
        }
        #expect(responses.count == 2)
        #expect(groceries.id == 1 && milk.id == 1)
        #expect(milk["listId"] == 1)
        #expect(try sqlite.records(at: "/items").first?["listId"] == 1)
        #expect(!store.hasChanges)
    }

    @Test func aRefusedTransactionStoresNothingAndLeavesEveryChangePending() async throws {
        let sqlite = try SQLiteSync.inMemory()
        try await sqlite.send(.create, "/lists", body: ["name": "Old"])
        let store = Store(sync: sqlite)
        let old = try #require(try await store.find(List.self, id: 1))
        try await sqlite.send(.delete, "/lists/1")
        let groceries = List(["name": "Groceries"])
        try store.insert(groceries)
        store.delete(old)
        var errors = 0
        groceries.on("error") { _ in errors += 1 }
        await #expect(throws: SyncError.self) { try await store.saveChanges() }
        #expect(try sqlite.records(at: "/lists").isEmpty)
        #expect(groceries.isNew && errors == 1)
        #expect(store.insertedModels.count == 1 && store.deletedModels.count == 1)
    }

    @Test func atomicOperationsUseTheTransactionWithoutAnEndpoint() async throws {
        let sqlite = try SQLiteSync.inMemory()
        let groceries = List(["name": "Groceries"])
        groceries.sync = sqlite
        let milk = Item(["title": "Milk"])
        milk.sync = sqlite
        milk[Item.list] = groceries
        let delivery = try await AtomicOperations(endpoint: nil).save([milk, groceries])
        guard case .inOneTransaction = delivery else {
            Issue.record("expected one transaction, got \(delivery)")
            return
        }
        #expect(milk["listId"] == groceries.id)
    }
}
