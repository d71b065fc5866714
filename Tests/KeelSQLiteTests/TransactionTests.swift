import Foundation
import Keel
import KeelSQLite
import Testing

/// `SQLiteSync.transaction`: several records change all or nothing.
struct TransactionTests {
    private struct Abort: Error, Equatable {}

    @Test func aTransactionCommitsAllItsWrites() async throws {
        let store = try SQLiteSync.inMemory()
        let item = try await store.transaction { tx in
            let list = try tx.create(["name": "Groceries"], in: "/lists")
            try tx.create(["list_id": list["id"] ?? nil, "title": "Milk"], in: "/items")
            return try tx.create(["list_id": list["id"] ?? nil, "title": "Eggs"], in: "/items")
        }
        #expect(item == ["list_id": 1, "title": "Eggs", "id": 2])
        #expect(try store.records(at: "/lists").count == 1)
        #expect(try store.records(at: "/items").count == 2)
    }

    @Test func aThrowingTransactionRollsEverythingBackAndRethrows() async throws {
        let store = try SQLiteSync.inMemory()
        try await store.send(.create, "/accounts", body: ["balance": 10])
        await #expect(throws: Abort()) {
            try await store.transaction { tx in
                try tx.patch(["balance": 0], at: "/accounts/1")
                try tx.create(["amount": 10], in: "/transfers")
                throw Abort()
            }
        }
        #expect(try store.records(at: "/accounts") == [["balance": 10, "id": 1]])
        #expect(try store.records(at: "/transfers").isEmpty)
        #expect(try await store.send(.read, "/accounts/1").headers["etag"] == "\"1\"")
    }

    @Test func operationsThrowTypedStoreErrors() async throws {
        let store = try SQLiteSync.inMemory()
        try await store.send(.create, "/notes", body: ["title": "A"])
        try await store.transaction { tx in
            #expect(throws: SQLiteStoreError.recordNotFound(path: ":memory:", record: "/notes/9")) {
                try tx.patch(["title": "B"], at: "/notes/9")
            }
            #expect(throws: SQLiteStoreError.recordExists(path: ":memory:", record: "/notes")) {
                try tx.create(["id": 1], in: "/notes")
            }
            #expect(
                throws: SQLiteStoreError.versionMismatch(path: ":memory:", record: "/notes/1", expected: 7, current: 1)
            ) {
                try tx.update(["title": "B"], at: "/notes/1", ifVersion: 7)
            }
            // A failed operation changed nothing, and the transaction goes on.
            #expect(try tx.version(at: "/notes/1") == 1)
            try tx.patch(["title": "C"], at: "/notes/1", ifVersion: 1)
            #expect(try tx.record(at: "/notes/1") == ["title": "C", "id": 1])
            #expect(try tx.records(at: "/notes").count == 1)
        }
        #expect(try store.records(at: "/notes") == [["title": "C", "id": 1]])
    }

    @Test func aTransactionIsUnusableAfterItEnds() async throws {
        let store = try SQLiteSync.inMemory()
        let escaped = Escaped()
        try await store.transaction { tx in escaped.keep(tx) }
        #expect(throws: SQLiteStoreError.closed(path: ":memory:")) { try escaped.transaction?.records(at: "/notes") }
    }

    @Test func concurrentTransactionsOnTwoStoresNeverInterleave() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "bank.sqlite")
            let first = try SQLiteSync(fileURL: file)
            let second = try SQLiteSync(fileURL: file)
            defer {
                first.close()
                second.close()
            }
            try await first.send(.create, "/accounts", body: ["balance": 100])
            try await first.send(.create, "/accounts", body: ["balance": 100])

            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<40 {
                    let store = index.isMultiple(of: 2) ? first : second
                    group.addTask {
                        try await store.transaction { tx in
                            let from = try tx.record(at: "/accounts/1")?["balance"]?.intValue ?? 0
                            let to = try tx.record(at: "/accounts/2")?["balance"]?.intValue ?? 0
                            try tx.patch(["balance": .int(from - 1)], at: "/accounts/1")
                            try tx.patch(["balance": .int(to + 1)], at: "/accounts/2")
                        }
                    }
                }
                try await group.waitForAll()
            }
            let balances = try second.records(at: "/accounts").compactMap { $0["balance"]?.intValue }
            #expect(balances == [60, 140])
        }
    }
}

/// Smuggles a transaction out of its closure, to check it is no longer usable.
private final class Escaped: @unchecked Sendable {
    private(set) var transaction: SQLiteTransaction?

    func keep(_ transaction: SQLiteTransaction) { self.transaction = transaction }
}
