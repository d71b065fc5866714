import Foundation
import Keel
import KeelSQLite
import Testing

/// Ids assigned by creates without an id when more than one connection writes the file, or
/// one connection writes through more than one path: the SQLite store remembers the next
/// id its own creates left only while nothing else committed, and asks SQLite otherwise.
struct RecordIDAcrossConnectionsTests {
    @Test func twoStoresOnOneFileCreatingAlternatelyGetDistinctIncreasingIDs() async throws {
        try await withTwoStoresOnOneFile { first, second in
            var ids: [JSONValue?] = []
            for _ in 1...5 {
                ids.append(try await first.send(.create, "/notes", body: [:]).body?["id"])
                ids.append(try await second.send(.create, "/notes", body: [:]).body?["id"])
            }
            #expect(ids == (1...10).map { .int($0) })
        }
    }

    @Test func anIDThatAnotherStoreGaveAndDeletedIsNotGivenAgain() async throws {
        try await withTwoStoresOnOneFile { first, second in
            try await first.send(.create, "/notes", body: [:])
            #expect(try await second.send(.create, "/notes", body: [:]).body?["id"] == 2)
            try await second.send(.delete, "/notes/2")
            #expect(try await first.send(.create, "/notes", body: [:]).body?["id"] == 3)
        }
    }

    @Test func aRecordThatAnotherStoreUpsertedUnderTheNextIDIsSkipped() async throws {
        try await withTwoStoresOnOneFile { first, second in
            try await first.send(.create, "/notes", body: [:])
            try await second.send(.update, "/notes/2", body: ["title": "Upserted"])
            #expect(try await first.send(.create, "/notes", body: [:]).body?["id"] == 3)
            #expect(try await first.send(.read, "/notes/2").body?["title"] == "Upserted")
        }
    }

    @Test func anIDGivenAndDeletedInsideATransactionIsNotGivenAgain() async throws {
        let store = try SQLiteSync.inMemory()
        try await store.send(.create, "/notes", body: [:])
        try await store.transaction { tx in
            try tx.create([:], in: "/notes")
            try tx.delete(at: "/notes/2")
        }
        #expect(try await store.send(.create, "/notes", body: [:]).body?["id"] == 3)
    }

    @Test func anExplicitIDAboveTheNextMovesTheNumberingPastIt() async throws {
        let store = try SQLiteSync.inMemory()
        try await store.send(.create, "/notes", body: [:])
        try await store.send(.create, "/notes", body: ["id": 10])
        #expect(try await store.send(.create, "/notes", body: [:]).body?["id"] == 11)
    }

    /// A failed create stores nothing, so its id goes to the next create, as after a
    /// rolled-back transaction (``RecordIDTests``).
    @Test func aFailedCreateGivesItsIDToTheNextCreate() async throws {
        let store = try SQLiteSync.inMemory()
        try await store.send(.create, "/notes", body: [:])
        var tooDeep: JSONValue = []
        for _ in 0...JSONValue.maximumParsingDepth { tooDeep = [tooDeep] }
        await #expect(throws: SyncError.self) {
            try await store.send(.create, "/notes", body: ["nested": tooDeep])
        }
        #expect(try await store.send(.create, "/notes", body: [:]).body?["id"] == 2)
        #expect(try await store.send(.read, "/notes").body == [["id": 1], ["id": 2]])
    }

    @Test func theNumberingContinuesAfterReopening() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "ids.sqlite")
            let store = try SQLiteSync(fileURL: file)
            for _ in 1...2 { try await store.send(.create, "/notes", body: [:]) }
            store.close()

            let reopened = try SQLiteSync(fileURL: file)
            defer { reopened.close() }
            #expect(try await reopened.send(.create, "/notes", body: [:]).body?["id"] == 3)
        }
    }

    /// Runs `body` with two stores open on one new file, closing both after it.
    private func withTwoStoresOnOneFile(
        _ body: (SQLiteSync, SQLiteSync) async throws -> Void
    ) async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "ids.sqlite")
            let first = try SQLiteSync(fileURL: file)
            let second = try SQLiteSync(fileURL: file)
            defer {
                first.close()
                second.close()
            }
            try await body(first, second)
        }
    }
}
