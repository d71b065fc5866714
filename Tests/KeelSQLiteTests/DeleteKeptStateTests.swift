import Foundation
import Keel
import Testing

@testable import KeelSQLite

/// A delete of any record but its collection's tail leaves the collection's state (next id,
/// newest `seq`, tail) as it was, so the connection remembers that state after it and the
/// next delete skips the tail's keep (``SQLiteRecords``' `deleteKeepingState`); a delete of
/// the tail still moves what the tail carries to the collection's row, so no id is given
/// again, whoever committed in between.
struct DeleteKeptStateTests {
    /// The state the connection remembers for `/notes`, and the one SQLite holds.
    private func states(of store: SQLiteSync) throws -> (
        remembered: SQLiteCollectionState?, stored: SQLiteCollectionState?
    ) {
        try store.connection.withLock { connection in
            let connection = try #require(connection)
            return (
                connection.nextIDMemo.states(atDataVersion: connection.dataVersion())["/notes"],
                try connection.collectionState("/notes")
            )
        }
    }

    @Test func aDeleteOfAnyRecordButTheTailLeavesTheStateItRemembers() async throws {
        let store = try SQLiteSync.inMemory()
        defer { store.close() }
        for title in ["A", "B", "C", "D", "E"] {
            try await store.send(.create, "/notes", body: ["title": .string(title)])
        }
        try await store.send(.update, "/notes/a%2Fb", body: ["title": "T"])
        // After the update the memo is empty: the first delete reads the state; the others
        // find it remembered.
        for path in ["/notes/2", "/notes/a%2Fb", "/notes/1", "/notes/4"] {
            #expect(try await store.send(.delete, path).status == 204)
            let (remembered, stored) = try states(of: store)
            #expect(remembered != nil, "\(path)")
            #expect(remembered == stored, "\(path)")
        }
        #expect(try await store.send(.delete, "/notes/5").status == 204)
        let (remembered, stored) = try states(of: store)
        #expect(remembered == nil || remembered == stored)
        #expect(try store.records(at: "/notes").compactMap { $0["id"]?.intValue } == [3])
        #expect(try await store.send(.create, "/notes", body: ["title": "F"]).body?["id"] == 6)
    }

    @Test(arguments: ["/notes/9", "/notes/4294967296", "/notes/x"])
    func aMissingRecordPastTheTailOrOfTheSecondRangeKeepsTheTailsNextID(_ missing: String) async throws {
        let store = try SQLiteSync.inMemory()
        defer { store.close() }
        for title in ["A", "B", "C"] { try await store.send(.create, "/notes", body: ["title": .string(title)]) }
        try await store.send(.delete, "/notes/1")
        await #expect(throws: SyncError.storeRefused(StoreRefusal(.notFound, path: missing))) {
            try await store.send(.delete, missing)
        }
        try await store.send(.delete, "/notes/2")
        try await store.send(.delete, "/notes/3")
        #expect(try await store.send(.create, "/notes", body: ["title": "D"]).body?["id"] == 4)
    }

    /// A create's tail is the remembered tail of the deletes after it: deleting it keeps its
    /// next id.
    @Test func theTailACreateLeftIsKeptWhenDeletedAfterOtherDeletes() async throws {
        let store = try SQLiteSync.inMemory()
        defer { store.close() }
        for title in ["A", "B"] { try await store.send(.create, "/notes", body: ["title": .string(title)]) }
        try await store.send(.delete, "/notes/1")
        #expect(try await store.send(.create, "/notes", body: ["title": "C"]).body?["id"] == 3)
        try await store.send(.delete, "/notes/2")
        try await store.send(.delete, "/notes/3")
        #expect(try store.records(at: "/notes").isEmpty)
        #expect(try await store.send(.create, "/notes", body: ["title": "D"]).body?["id"] == 4)
    }

    /// Another connection's create moves the tail: the state remembered before it is not
    /// used, so deleting the new tail still keeps its next id.
    @Test func anotherConnectionsCreateMovesTheTailTheDeletesKeep() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "notes.sqlite")
            let first = try SQLiteSync(fileURL: file)
            let second = try SQLiteSync(fileURL: file)
            defer {
                first.close()
                second.close()
            }
            for title in ["A", "B", "C"] { try await first.send(.create, "/notes", body: ["title": .string(title)]) }
            try await first.send(.delete, "/notes/1")
            #expect(try await second.send(.create, "/notes", body: ["title": "D"]).body?["id"] == 4)
            try await first.send(.delete, "/notes/3")
            try await first.send(.delete, "/notes/4")
            try await first.send(.delete, "/notes/2")
            #expect(try await second.send(.create, "/notes", body: ["title": "E"]).body?["id"] == 5)
            #expect(try await first.send(.create, "/notes", body: ["title": "F"]).body?["id"] == 6)
        }
    }
}
