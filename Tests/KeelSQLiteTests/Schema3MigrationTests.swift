import Foundation
import Keel
import Testing

@testable import KeelSQLite

/// A file of schema 3 (records clustered by `(collection, seq)`) opens, moves once to the
/// tables of the current schema and keeps every record, its id, version, place and next id,
/// and the offline tables beside them.
struct Schema3MigrationTests {
    /// The tables of schema 3 and the offline tables of that time.
    static let version3 = EarlierSchema.version3 + OfflineSchema.sql + "\n"

    /// `/notes` out of id order, with gaps, versions above 1, a damaged record, and its next
    /// id (9) carried by its newest record, above its row's (4); a nested collection; a
    /// collection whose records were all deleted; a queued offline create and its record.
    static let version3Rows = """
        INSERT INTO collections VALUES ('/notes', 4), ('/users/1/invites', 1), ('/archive', 4);
        INSERT INTO records VALUES ('/notes', 1, '7', '{"id":7,"title":"Seven"}', 3, NULL);
        INSERT INTO records VALUES ('/users/1/invites', 1, '1', '{"id":1}', 1, 2);
        INSERT INTO records VALUES ('/notes', 2, '2', '{"id":2,"title":"Two"}', 1, NULL);
        INSERT INTO records VALUES ('/notes', 4, 'a/b', '{"id":"a/b","title":"Slash"}', 2, NULL);
        INSERT INTO records VALUES ('/notes', 5, '5', '{"title": ', 1, NULL);
        INSERT INTO records VALUES ('/notes', 6, '8', '{"id":8,"title":"Eight"}', 1, 9);
        INSERT INTO offline_records(collection, id, seq, json, version, removed)
            VALUES ('/notes', 'local-1', 1, '{"id":"local-1","title":"Queued"}', NULL, 0);
        INSERT INTO offline_queue(method, url, collection, record_id, body, headers, idempotency_key)
            VALUES ('create', '/notes', '/notes', 'local-1', '{"id":"local-1","title":"Queued"}', '{}', 'k1');
        """

    /// A file of schema 3 holding ``version3Rows``, and a raw connection to it.
    private static func version3File(in directory: URL) throws -> (URL, RawDatabase) {
        try EarlierSchema.file(named: "v3.sqlite", in: directory, version3 + version3Rows)
    }

    @Test func aSchema3FileKeepsEveryRecordItsVersionItsPlaceAndTheNextIDs() async throws {
        try await withTemporaryDirectory { directory in
            let (file, raw) = try Self.version3File(in: directory)

            let store = try SQLiteSync(fileURL: file)
            defer { store.close() }
            #expect(try raw.column("PRAGMA user_version") == [String(SQLiteSync.schemaVersion)])
            let notes = try await store.send(.read, "/notes")
            #expect(
                notes.body == [
                    ["id": 7, "title": "Seven"], ["id": 2, "title": "Two"], ["id": "a/b", "title": "Slash"],
                    ["id": 8, "title": "Eight"],
                ]
            )
            #expect(notes.headers[SQLiteSync.damagedRecordsHeader] == "1")
            #expect(try await store.damagedRecords().map(\.path) == ["/notes/5"])
            #expect(try await store.send(.read, "/notes/7").headers["etag"] == "\"3\"")
            #expect(try await store.send(.read, "/notes/a%2Fb").headers["etag"] == "\"2\"")
            #expect(try await store.send(.read, "/notes/8").body == ["id": 8, "title": "Eight"])
            #expect(try await store.send(.read, "/users/1/invites/1").headers["etag"] == "\"1\"")

            // Numbering continues from the next id the newest record carried, per collection.
            #expect(try await store.send(.create, "/notes", body: ["title": "New"]).body?["id"] == 9)
            #expect(try await store.send(.create, "/users/1/invites", body: [:]).body?["id"] == 2)
            #expect(try await store.send(.read, "/archive").body == [])
            #expect(try await store.send(.create, "/archive", body: [:]).body?["id"] == 4)

            // New records go after the migrated ones; updates keep their place.
            try await store.send(.patch, "/notes/7", body: ["done": true])
            #expect(
                try await store.send(.read, "/notes").body?.arrayValue?.compactMap { $0["id"] } == [7, 2, "a/b", 8, 9]
            )
            #expect(try await store.send(.read, "/notes/7").headers["etag"] == "\"4\"")
        }
    }

    @Test func aSchema3FileKeepsItsOfflineQueueAndRecords() async throws {
        try await withTemporaryDirectory { directory in
            let (file, _) = try Self.version3File(in: directory)
            try SQLiteSync(fileURL: file).close()

            let local = try SQLiteOfflineStore(fileURL: file)
            defer { local.close() }
            let queued = try await local.queuedChanges()
            #expect(queued.map(\.idempotencyKey) == ["k1"])
            #expect(queued.first?.method == .create)
            #expect(queued.first?.body == ["id": "local-1", "title": "Queued"])
            #expect(try await local.record("local-1", in: "/notes") == ["id": "local-1", "title": "Queued"])
        }
    }

    @Test func aMigratedFileIsNotMigratedAgain() async throws {
        try await withTemporaryDirectory { directory in
            let (file, raw) = try Self.version3File(in: directory)
            let first = try SQLiteSync(fileURL: file)
            let before = try first.records(at: "/notes")
            first.close()
            // `schema_version` counts every change of the schema: a second migration moves it.
            let schemaVersion = try raw.column("PRAGMA schema_version")

            let again = try SQLiteSync(fileURL: file)
            defer { again.close() }
            #expect(try raw.column("PRAGMA schema_version") == schemaVersion)
            #expect(try again.records(at: "/notes") == before)
            #expect(try await again.send(.create, "/notes", body: [:]).body?["id"] == 9)
        }
    }

    @Test func aMigratedFileHasTheTablesAndIndexesOfANewOne() async throws {
        try await withTemporaryDirectory { directory in
            let (migrated, _) = try Self.version3File(in: directory)
            let fresh = directory.appending(path: "new.sqlite")
            for file in [migrated, fresh] { try SQLiteOfflineStore(fileURL: file).close() }
            #expect(try schemaShape(of: migrated) == schemaShape(of: fresh))
        }
    }

    @Test func aFileOfANewerSchemaIsRefusedAndLeftAsItWas() async throws {
        try await withTemporaryDirectory { directory in
            let (file, raw) = try Self.version3File(in: directory)
            try raw.execute("PRAGMA user_version = 6")
            let before = fileSnapshot(file)

            #expect(throws: SQLiteStoreError.newerSchema(found: 6, supported: 5)) { try SQLiteSync(fileURL: file) }
            #expect(fileSnapshot(file) == before)
            #expect(
                try raw.column("SELECT id FROM records ORDER BY collection, seq") == ["7", "2", "a/b", "5", "8", "1"]
            )
        }
    }
}
