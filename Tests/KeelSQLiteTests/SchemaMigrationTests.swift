import Foundation
import Keel
import KeelSQLite
import Testing

/// Files of earlier schemas open, migrate once and keep every record, its id, version and
/// place, and each collection's next id.
struct SchemaMigrationTests {
    /// A schema 2 store: `/notes` out of id order, with a gap where records were deleted,
    /// a string id, versions above 1, a damaged record and a next id past deleted records;
    /// a nested collection; a collection whose records were all deleted.
    static let schema2Records = """
        INSERT INTO collections VALUES ('/notes', 12), ('/users/1/invites', 2), ('/archive', 4);
        INSERT INTO records VALUES ('/notes', '7', 1, '{"id":7,"title":"Seven"}', 3);
        INSERT INTO records VALUES ('/notes', '2', 2, '{"id":2,"title":"Two"}', 1);
        INSERT INTO records VALUES ('/notes', 'a/b', 4, '{"id":"a/b","title":"Slash"}', 2);
        INSERT INTO records VALUES ('/notes', '9', 5, '{"title": ', 1);
        INSERT INTO records VALUES ('/users/1/invites', '1', 1, '{"id":1}', 1);
        """

    /// A file of schema 2 holding ``schema2Records``, and a raw connection to it.
    private static func schema2File(in directory: URL) throws -> (URL, RawDatabase) {
        try EarlierSchema.file(named: "v2.sqlite", in: directory, EarlierSchema.version2 + schema2Records)
    }

    @Test func aSchema2FileKeepsEveryRecordItsVersionItsPlaceAndTheNextIDs() async throws {
        try await withTemporaryDirectory { directory in
            let (file, raw) = try Self.schema2File(in: directory)

            let store = try SQLiteSync(fileURL: file)
            defer { store.close() }
            #expect(try raw.column("PRAGMA user_version") == [String(SQLiteSync.schemaVersion)])
            let notes = try await store.send(.read, "/notes")
            #expect(
                notes.body == [
                    ["id": 7, "title": "Seven"], ["id": 2, "title": "Two"], ["id": "a/b", "title": "Slash"],
                ]
            )
            #expect(notes.headers[SQLiteSync.damagedRecordsHeader] == "1")
            #expect(try await store.damagedRecords().map(\.path) == ["/notes/9"])
            #expect(try await store.send(.read, "/notes/7").headers["etag"] == "\"3\"")
            #expect(try await store.send(.read, "/notes/a%2Fb").headers["etag"] == "\"2\"")
            #expect(try await store.send(.read, "/notes/2").headers["etag"] == "\"1\"")

            // Numbering continues after the deleted records, per collection.
            #expect(try await store.send(.create, "/notes", body: ["title": "New"]).body?["id"] == 12)
            #expect(try await store.send(.create, "/users/1/invites", body: [:]).body?["id"] == 2)
            // A collection whose records were all deleted is still known, and keeps its number.
            #expect(try await store.send(.read, "/archive").body == [])
            await #expect(throws: SyncError.self) { try await store.send(.read, "/archive/1") }
            #expect(try await store.send(.create, "/archive", body: [:]).body?["id"] == 4)

            // New records go after the migrated ones; updates keep their place.
            try await store.send(.patch, "/notes/7", body: ["done": true])
            #expect(
                try await store.send(.read, "/notes").body?.arrayValue?.compactMap { $0["id"] } == [7, 2, "a/b", 12]
            )
            #expect(try await store.send(.read, "/notes/7").headers["etag"] == "\"4\"")
        }
    }

    @Test func aMigratedFileIsReadTheSameAfterReopening() async throws {
        try await withTemporaryDirectory { directory in
            let (file, _) = try Self.schema2File(in: directory)
            let first = try SQLiteSync(fileURL: file)
            let before = try first.records(at: "/notes")
            first.close()

            let again = try SQLiteSync(fileURL: file)
            defer { again.close() }
            #expect(try again.records(at: "/notes") == before)
            #expect(try await again.send(.create, "/notes", body: [:]).body?["id"] == 12)
        }
    }

    @Test func aMigratedFileHasTheTablesAndIndexesOfANewOne() async throws {
        try await withTemporaryDirectory { directory in
            let (migrated, _) = try Self.schema2File(in: directory)
            let fresh = directory.appending(path: "new.sqlite")
            for file in [migrated, fresh] { try SQLiteSync(fileURL: file).close() }
            #expect(try schemaShape(of: migrated) == schemaShape(of: fresh))
            #expect(
                try RawDatabase(path: fresh.path(percentEncoded: false)).column(
                    "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
                ) == ["collections_path", "records_key"]
            )
        }
    }

    @Test func aSchema1FileMigratesStraightToTheCurrentSchema() async throws {
        try await withTemporaryDirectory { directory in
            let (file, raw) = try EarlierSchema.file(
                named: "v1.sqlite",
                in: directory,
                EarlierSchema.version1 + """
                    INSERT INTO collections VALUES ('/notes', 6);
                    INSERT INTO records VALUES ('/notes', '5', 1, '{"id":5,"title":"Five"}');
                    INSERT INTO records VALUES ('/notes', '1', 3, '{"id":1,"title":"One"}');
                    """
            )

            let store = try SQLiteSync(fileURL: file)
            defer { store.close() }
            #expect(try raw.column("PRAGMA user_version") == [String(SQLiteSync.schemaVersion)])
            #expect(try store.records(at: "/notes") == [["id": 5, "title": "Five"], ["id": 1, "title": "One"]])
            #expect(try await store.send(.read, "/notes/5").headers["etag"] == "\"1\"")
            try await store.send(.delete, "/notes/1")
            #expect(try await store.send(.create, "/notes", body: [:]).body?["id"] == 6)
            #expect(try raw.column("SELECT id FROM records ORDER BY seq") == ["5", "6"])
        }
    }
}
