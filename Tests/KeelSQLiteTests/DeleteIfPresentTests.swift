import Foundation
import Keel
import Testing

@testable import KeelSQLite

/// A delete without `If-Match` removes the record with one `DELETE` and tells a missing
/// record by the rows it changed (``SQLiteRecords/deleteIfPresent(_:in:)``) instead of
/// reading its version first: a missing record is still refused with 404 and changes
/// nothing, the tail's next id is still kept, and a conditional delete still reads the
/// version and answers 412.
struct DeleteIfPresentTests {
    /// A store with `/notes/1` to `/notes/3`, created without ids.
    private func store() async throws -> SQLiteSync {
        let store = try SQLiteSync.inMemory()
        for title in ["A", "B", "C"] { try await store.send(.create, "/notes", body: ["title": .string(title)]) }
        return store
    }

    @Test func aDeleteRemovesTheRecordOnceThenRefusesIt() async throws {
        let store = try await store()
        #expect(try await store.send(.delete, "/notes/2").status == 204)
        await #expect(throws: SyncError.storeRefused(StoreRefusal(.notFound, path: "/notes/2"))) {
            try await store.send(.delete, "/notes/2")
        }
        #expect(try store.records(at: "/notes").compactMap { $0["id"]?.intValue } == [1, 3])
    }

    @Test(arguments: ["/notes/9", "/notes/x", "/others/1"])
    func aDeleteOfAMissingRecordChangesNothing(_ path: String) async throws {
        let store = try await store()
        let before = try store.records(at: "/notes")
        await #expect(throws: SyncError.storeRefused(StoreRefusal(.notFound, path: path))) {
            try await store.send(.delete, path)
        }
        #expect(try store.records(at: "/notes") == before)
        #expect(try await store.send(.create, "/notes", body: ["title": "D"]).body?["id"] == 4)
    }

    /// Deleting the tail, then creating, never gives its id again.
    @Test func theTailsNextIDOutlivesItsDelete() async throws {
        let store = try await store()
        try await store.send(.delete, "/notes/3")
        try await store.send(.delete, "/notes/2")
        #expect(try await store.send(.create, "/notes", body: ["title": "D"]).body?["id"] == 4)
    }

    @Test func aRecordOfTheSecondRangeIsDeletedOnce() async throws {
        let store = try await store()
        try await store.send(.update, "/notes/a%2Fb", body: ["title": "T"])
        #expect(try await store.send(.delete, "/notes/a%2Fb").status == 204)
        await #expect(throws: SyncError.storeRefused(StoreRefusal(.notFound, path: "/notes/a%2Fb"))) {
            try await store.send(.delete, "/notes/a%2Fb")
        }
    }

    @Test func aConditionalDeleteStillComparesTheVersion() async throws {
        let store = try await store()
        var request = SyncRequest(method: .delete, url: URL(string: "/notes/2")!)
        request.headers["If-Match"] = "\"5\""
        let stale = request
        await #expect(throws: SyncError.storeRefused(StoreRefusal(.versionMismatch(current: 1), path: "/notes/2"))) {
            try await store.perform(stale)
        }
        request.headers["If-Match"] = "\"1\""
        #expect(try await store.perform(request).status == 204)
        let missing = request
        await #expect(throws: SyncError.storeRefused(StoreRefusal(.notFound, path: "/notes/2", status: 412))) {
            try await store.perform(missing)
        }
    }
}
