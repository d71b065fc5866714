import Foundation
import Keel
import KeelSQLite
import Testing

/// Assigned ids are never given twice, whichever record is deleted: since schema 3 the
/// SQLite store keeps a collection's next id with its newest record, so these cases
/// delete that record.
struct RecordIDTests {
    private struct Abort: Error {}

    @Test(arguments: Backend.allCases)
    func deletingTheNewestRecordDoesNotFreeItsID(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            for _ in 1...3 { try await sync.send(.create, "/notes", body: [:]) }
            try await sync.send(.delete, "/notes/3")
            #expect(try await sync.send(.create, "/notes", body: [:]).body?["id"] == 4)
        }
    }

    @Test(arguments: Backend.allCases)
    func deletingEveryRecordKeepsTheNumberingAndTheCollection(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            try await sync.send(.create, "/notes", body: [:])
            try await sync.send(.create, "/notes", body: [:])
            try await sync.send(.delete, "/notes/2")
            try await sync.send(.delete, "/notes/1")
            #expect(try await sync.send(.read, "/notes").body == [])
            await #expect(throws: SyncError.self) { try await sync.send(.read, "/notes/1") }
            #expect(try await sync.send(.create, "/notes", body: [:]).body?["id"] == 3)
            #expect(try await sync.send(.read, "/notes").body == [["id": 3]])
        }
    }

    @Test(arguments: Backend.allCases)
    func anExplicitIDMovesTheNumberingPastItEvenOnceDeleted(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            try await sync.send(.create, "/notes", body: ["id": 50])
            try await sync.send(.delete, "/notes/50")
            #expect(try await sync.send(.create, "/notes", body: [:]).body?["id"] == 51)
        }
    }

    @Test(arguments: Backend.allCases)
    func aDeletedUpsertDoesNotMoveTheNumbering(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            try await sync.send(.create, "/notes", body: [:])
            try await sync.send(.update, "/notes/5", body: ["title": "Upserted"])
            try await sync.send(.delete, "/notes/5")
            #expect(try await sync.send(.create, "/notes", body: [:]).body?["id"] == 2)
        }
    }

    @Test(arguments: Backend.allCases)
    func eachCollectionNumbersOnItsOwnAfterDeletes(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            try await sync.send(.create, "/notes", body: [:])
            try await sync.send(.create, "/notes", body: [:])
            try await sync.send(.create, "/users/1/invites", body: [:])
            try await sync.send(.delete, "/notes/2")
            try await sync.send(.delete, "/users/1/invites/1")
            #expect(try await sync.send(.create, "/users/1/invites", body: [:]).body?["id"] == 2)
            #expect(try await sync.send(.create, "/notes", body: [:]).body?["id"] == 3)
        }
    }

    @Test func theNumberingSurvivesReopeningAfterTheNewestRecordWasDeleted() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "ids.sqlite")
            let store = try SQLiteSync(fileURL: file)
            for _ in 1...3 { try await store.send(.create, "/notes", body: [:]) }
            try await store.send(.delete, "/notes/3")
            store.close()

            let reopened = try SQLiteSync(fileURL: file)
            defer { reopened.close() }
            #expect(try await reopened.send(.create, "/notes", body: [:]).body?["id"] == 4)
        }
    }

    @Test func removingTheNewestRecordDirectlyDoesNotFreeItsID() async throws {
        let store = try SQLiteSync.inMemory()
        try await store.send(.create, "/notes", body: [:])
        try await store.send(.create, "/notes", body: [:])
        try await store.removeRecord(at: "/notes/2")
        #expect(try await store.send(.create, "/notes", body: [:]).body?["id"] == 3)
    }

    @Test func deletesInsideATransactionDoNotFreeIDs() async throws {
        let store = try SQLiteSync.inMemory()
        let id = try await store.transaction { tx in
            try tx.create([:], in: "/notes")
            try tx.delete(at: "/notes/1")
            return try tx.create([:], in: "/notes")["id"]
        }
        #expect(id == 2)
        #expect(try await store.send(.create, "/notes", body: [:]).body?["id"] == 3)
    }

    @Test func aRolledBackCreateGivesItsIDToTheNextCreate() async throws {
        let store = try SQLiteSync.inMemory()
        try await store.send(.create, "/notes", body: [:])
        await #expect(throws: Abort.self) {
            try await store.transaction { tx in
                try tx.create([:], in: "/notes")
                throw Abort()
            }
        }
        #expect(try await store.send(.create, "/notes", body: [:]).body?["id"] == 2)
    }
}
