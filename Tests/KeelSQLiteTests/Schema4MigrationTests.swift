import Foundation
import Keel
import Testing

@testable import KeelSQLite

/// A file of schema 4 (records keyed by their `seq`, found through `(id, collection)`)
/// opens, moves once to the tables of schema 5 and keeps every record, its id, version,
/// place and next id, and the offline tables beside them; a migration that fails leaves
/// the file as it was.
struct Schema4MigrationTests {
    /// The tables of schema 4 and the offline tables of that time.
    static let version4 = EarlierSchema.version4 + OfflineSchema.sql + "\n"

    /// `/notes` out of id order, with ids of the second range (`a/b`, `007`, one past 2³²),
    /// versions above 1, a damaged record, and its next id (9) carried by its newest
    /// record, above its row's (4); a nested collection; a collection whose records were
    /// all deleted; a queued offline create and its record.
    static let version4Rows = """
        INSERT INTO collections VALUES ('/notes', 4), ('/users/1/invites', 1), ('/archive', 4);
        INSERT INTO records VALUES (1, '/notes', '7', '{"id":7,"title":"Seven"}', 3, NULL);
        INSERT INTO records VALUES (2, '/users/1/invites', '1', '{"id":1}', 1, 2);
        INSERT INTO records VALUES (3, '/notes', '2', '{"id":2,"title":"Two"}', 1, NULL);
        INSERT INTO records VALUES (4, '/notes', 'a/b', '{"id":"a/b","title":"Slash"}', 2, NULL);
        INSERT INTO records VALUES (5, '/notes', '007', '{"id":"007","title":"Bond"}', 1, NULL);
        INSERT INTO records VALUES (6, '/notes', '5', '{"title": ', 1, NULL);
        INSERT INTO records VALUES (7, '/notes', '4294967296', '{"id":4294967296,"title":"Big"}', 1, NULL);
        INSERT INTO records VALUES (8, '/notes', '8', '{"id":8,"title":"Eight"}', 1, 9);
        INSERT INTO offline_records(collection, id, seq, json, version, removed)
            VALUES ('/notes', 'local-1', 1, '{"id":"local-1","title":"Queued"}', NULL, 0);
        INSERT INTO offline_queue(method, url, collection, record_id, body, headers, idempotency_key)
            VALUES ('create', '/notes', '/notes', 'local-1', '{"id":"local-1","title":"Queued"}', '{}', 'k1');
        """

    /// A file of schema 4 holding ``version4Rows``, and a raw connection to it.
    private static func version4File(in directory: URL) throws -> (URL, RawDatabase) {
        try EarlierSchema.file(named: "v4.sqlite", in: directory, version4 + version4Rows)
    }

    @Test func aSchema4FileKeepsEveryRecordItsVersionItsPlaceAndTheNextIDs() async throws {
        try await withTemporaryDirectory { directory in
            let (file, raw) = try Self.version4File(in: directory)

            let store = try SQLiteSync(fileURL: file)
            defer { store.close() }
            #expect(try raw.column("PRAGMA user_version") == ["5"])
            let notes = try await store.send(.read, "/notes")
            #expect(
                notes.body == [
                    ["id": 7, "title": "Seven"], ["id": 2, "title": "Two"], ["id": "a/b", "title": "Slash"],
                    ["id": "007", "title": "Bond"], ["id": 4_294_967_296, "title": "Big"], ["id": 8, "title": "Eight"],
                ]
            )
            #expect(notes.headers[SQLiteSync.damagedRecordsHeader] == "1")
            #expect(try await store.damagedRecords().map(\.path) == ["/notes/5"])
            #expect(try await store.send(.read, "/notes/7").headers["etag"] == "\"3\"")
            #expect(try await store.send(.read, "/notes/a%2Fb").headers["etag"] == "\"2\"")
            #expect(try await store.send(.read, "/notes/007").body?["title"] == "Bond")
            #expect(try await store.send(.read, "/notes/4294967296").body?["title"] == "Big")
            #expect(try await store.send(.read, "/users/1/invites/1").headers["etag"] == "\"1\"")

            // Integer ids below 2³² are keyed by their collection's number; the others take
            // the second range, in their order.
            #expect(
                try raw.column(
                    """
                    SELECT key = (SELECT number FROM collections WHERE path = '/notes') * 4294967296 + 7
                    FROM records WHERE id = '7'
                    """
                ) == ["1"]
            )
            #expect(
                try raw.column("SELECT id FROM records WHERE key < 0 ORDER BY key DESC") == [
                    "a/b", "007", "4294967296",
                ]
            )

            // Numbering continues from the next id the newest record carried, per collection.
            #expect(try await store.send(.create, "/notes", body: ["title": "New"]).body?["id"] == 9)
            #expect(try await store.send(.create, "/users/1/invites", body: [:]).body?["id"] == 2)
            #expect(try await store.send(.read, "/archive").body == [])
            #expect(try await store.send(.create, "/archive", body: [:]).body?["id"] == 4)

            // New records go after the migrated ones; updates keep their place.
            try await store.send(.patch, "/notes/7", body: ["done": true])
            #expect(
                try await store.send(.read, "/notes").body?.arrayValue?.compactMap { $0["id"] } == [
                    7, 2, "a/b", "007", 4_294_967_296, 8, 9,
                ]
            )
            #expect(try await store.send(.read, "/notes/7").headers["etag"] == "\"4\"")
        }
    }

    @Test func aSchema4FileKeepsItsOfflineQueueAndRecords() async throws {
        try await withTemporaryDirectory { directory in
            let (file, _) = try Self.version4File(in: directory)
            try SQLiteSync(fileURL: file).close()

            let local = try SQLiteOfflineStore(fileURL: file)
            defer { local.close() }
            #expect(try await local.queuedChanges().map(\.idempotencyKey) == ["k1"])
            #expect(try await local.record("local-1", in: "/notes") == ["id": "local-1", "title": "Queued"])
        }
    }

    @Test func aMigratedFileHasTheTablesAndIndexesOfANewOne() async throws {
        try await withTemporaryDirectory { directory in
            let (migrated, _) = try Self.version4File(in: directory)
            let fresh = directory.appending(path: "new.sqlite")
            for file in [migrated, fresh] { try SQLiteOfflineStore(fileURL: file).close() }
            #expect(try schemaShape(of: migrated) == schemaShape(of: fresh))
        }
    }

    @Test func aMigrationThatFailsLeavesTheFileAsItWas() async throws {
        try await withTemporaryDirectory { directory in
            let (file, raw) = try Self.version4File(in: directory)
            // A table in the way of the migration's own makes it fail halfway.
            try raw.execute("CREATE TABLE records_v5(x)")
            let before = fileSnapshot(file)[""]

            #expect(throws: SQLiteStoreError.self) { try SQLiteSync(fileURL: file) }
            #expect(fileSnapshot(file)[""] == before)
            #expect(try raw.column("PRAGMA user_version") == ["4"])
            #expect(
                try raw.column("SELECT id FROM records ORDER BY seq") == [
                    "7", "1", "2", "a/b", "007", "5", "4294967296", "8",
                ]
            )
            #expect(try raw.column("SELECT count(*) FROM collections") == ["3"])
        }
    }
}
