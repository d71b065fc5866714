import Foundation
import Keel
import KeelSQLite
import Testing

/// Record versions: an `ETag` on every response with one record, and `If-Match` as a
/// compare-and-set on `update`, `patch` and `delete`, alike in every store that keeps
/// versions.
struct RecordVersionTests {
    static let versioned: [Backend] = [.inMemory, .sqlite, .sqliteInMemory]

    @Test(arguments: versioned)
    func eachWriteOfARecordGrowsTheVersionInItsETag(_ backend: Backend) async throws {
        try await backend.withSync { (sync) async throws in
            #expect(try await sync.send(.create, "/notes", body: ["title": "A"]).headers["etag"] == "\"1\"")
            #expect(try await sync.send(.read, "/notes/1").headers["etag"] == "\"1\"")
            #expect(try await sync.send(.patch, "/notes/1", body: ["title": "B"]).headers["etag"] == "\"2\"")
            #expect(try await sync.send(.update, "/notes/1", body: ["title": "C"]).headers["etag"] == "\"3\"")
            #expect(try await sync.send(.read, "/notes/1").headers["etag"] == "\"3\"")
            #expect(try await sync.send(.read, "/notes").headers["etag"] == nil, "a list has no single version")
        }
    }

    @Test(arguments: versioned)
    func aWriteWithTheCurrentVersionSucceeds(_ backend: Backend) async throws {
        try await backend.withSync { (sync) async throws in
            try await sync.send(.create, "/notes", body: ["title": "A"])
            let patched = try await sync.perform(
                SyncRequest(method: .patch, url: url("/notes/1"), body: ["title": "B"], headers: ["If-Match": "\"1\""])
            )
            #expect(patched.headers["etag"] == "\"2\"")
            let any = try await sync.perform(
                SyncRequest(method: .patch, url: url("/notes/1"), body: ["done": true], headers: ["if-match": "*"])
            )
            #expect(any.body?["done"] == true)
            _ = try await sync.perform(
                SyncRequest(method: .delete, url: url("/notes/1"), headers: ["If-Match": "\"9\", \"3\""])
            )
            #expect(try await sync.send(.read, "/notes").body == [])
        }
    }

    @Test(arguments: versioned)
    func aWriteBasedOnAnOldVersionFailsWith412AndChangesNothing(_ backend: Backend) async throws {
        try await backend.withSync { (sync) async throws in
            try await sync.send(.create, "/notes", body: ["title": "A"])
            try await sync.send(.patch, "/notes/1", body: ["title": "B"])

            for method in [SyncMethod.update, .patch, .delete] {
                let stale = SyncRequest(
                    method: method,
                    url: url("/notes/1"),
                    body: method == .delete ? nil : ["title": "lost"],
                    headers: ["If-Match": "\"1\""]
                )
                let error = await #expect(throws: SyncError.self) { try await sync.perform(stale) }
                #expect(error == .storeRefused(StoreRefusal(.versionMismatch(current: 2), path: "notes/1")))
            }
            let weak = SyncRequest(
                method: .patch,
                url: url("/notes/1"),
                body: ["x": 1],
                headers: ["If-Match": "W/\"2\""]
            )
            await #expect(throws: SyncError.storeRefused(StoreRefusal(.versionMismatch(current: 2), path: "notes/1"))) {
                try await sync.perform(weak)
            }
            let record = try await sync.send(.read, "/notes/1")
            #expect(record.body == ["title": "B", "id": 1])
            #expect(record.headers["etag"] == "\"2\"")
        }
    }

    @Test(arguments: versioned)
    func ifMatchOnAMissingRecordFailsInsteadOfCreatingIt(_ backend: Backend) async throws {
        try await backend.withSync { (sync) async throws in
            let request = SyncRequest(
                method: .update,
                url: url("/notes/5"),
                body: ["title": "A"],
                headers: ["If-Match": "*"]
            )
            await #expect(throws: SyncError.storeRefused(StoreRefusal(.notFound, path: "notes/5", status: 412))) {
                try await sync.perform(request)
            }
            #expect(try await sync.send(.read, "/notes").body == [])
        }
    }

    @Test func aStoreWithoutVersionsSendsNoETagAndOnlyMatchesAnyVersion() async throws {
        let sync = RecordStoreSync(DictionaryStore())
        let created = try await sync.send(.create, "/notes", body: ["title": "A"])
        #expect(created.headers["etag"] == nil)
        _ = try await sync.perform(
            SyncRequest(method: .patch, url: url("/notes/1"), body: ["n": 1], headers: ["If-Match": "*"])
        )
        await #expect(throws: SyncError.self) {
            try await sync.perform(
                SyncRequest(method: .patch, url: url("/notes/1"), body: ["n": 2], headers: ["If-Match": "\"1\""])
            )
        }
    }

    @Test func deletingAndCreatingAgainStartsAtVersionOne() async throws {
        let store = try SQLiteSync.inMemory()
        try await store.send(.update, "/notes/1", body: ["title": "A"])
        try await store.send(.patch, "/notes/1", body: ["title": "B"])
        try await store.send(.delete, "/notes/1")
        #expect(try await store.send(.update, "/notes/1", body: ["title": "C"]).headers["etag"] == "\"1\"")
    }

    // MARK: - Migration

    /// A file made by schema 1 (the tables as version 1 of the store created them).
    @Test func aSchema1FileOpensMigratesAndKeepsItsRecordsAtVersion1() async throws {
        try await withTemporaryDirectory { directory in
            let (file, raw) = try EarlierSchema.file(
                named: "old.sqlite",
                in: directory,
                EarlierSchema.version1 + """
                    INSERT INTO collections VALUES ('/notes', 3);
                    INSERT INTO records VALUES ('/notes', '1', 1, '{"id":1,"title":"Old"}');
                    INSERT INTO records VALUES ('/notes', '2', 2, '{"id":2,"title":"Older"}');
                    """
            )

            let store = try SQLiteSync(fileURL: file)
            defer { store.close() }
            #expect(try raw.column("PRAGMA user_version") == [String(SQLiteSync.schemaVersion)])
            #expect(try store.records(at: "/notes") == [["id": 1, "title": "Old"], ["id": 2, "title": "Older"]])
            #expect(try await store.send(.read, "/notes/1").headers["etag"] == "\"1\"")
            let patched = try await store.perform(
                SyncRequest(method: .patch, url: url("/notes/2"), body: ["done": true], headers: ["If-Match": "\"1\""])
            )
            #expect(patched.headers["etag"] == "\"2\"")
            #expect(try await store.send(.create, "/notes", body: ["title": "New"]).body?["id"] == 3)

            // Opening again (already migrated) changes nothing.
            let again = try SQLiteSync(fileURL: file)
            again.close()
            #expect(try raw.column("SELECT version FROM records ORDER BY seq") == ["1", "2", "1"])
        }
    }
}
