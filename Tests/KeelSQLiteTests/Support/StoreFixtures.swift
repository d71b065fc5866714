import CKeelSQLite
import Foundation
import Keel
import KeelSQLite
import Testing

/// Runs `body` with a new, empty temporary directory and removes it afterwards.
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appending(path: "keel-sqlite-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}

/// A relative URL for a request, such as `/notes/1`.
func url(_ path: String) -> URL {
    URL(string: path) ?? URL(filePath: path)
}

/// A note class with a `urlRoot`, for the Model-level tests.
final class Note: Model {
    override class var urlRoot: String? { "/notes" }
}

/// The backends every contract test runs against.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inMemory
    case sqlite
    case sqliteInMemory
    case dictionaryStore

    var testDescription: String { rawValue }

    /// Runs `body` with a fresh, empty backend; a SQLite store gets its own temporary file.
    func withSync(_ body: (any Sync) async throws -> Void) async throws {
        switch self {
        case .inMemory:
            try await body(InMemorySync())
        case .sqlite:
            try await withTemporaryDirectory { directory in
                let store = try SQLiteSync(fileURL: directory.appending(path: "store.sqlite"))
                defer { store.close() }
                try await body(store)
            }
        case .sqliteInMemory:
            try await body(SQLiteSync.inMemory())
        case .dictionaryStore:
            try await body(RecordStoreSync(DictionaryStore()))
        }
    }
}

/// Direct access to a database file through the C API, to prepare and inspect files
/// without going through the store.
struct RawDatabase {
    let path: String

    /// Runs SQL statements on the file, opening and closing a connection.
    func execute(_ sql: String) throws {
        try withConnection { handle in
            var message: UnsafeMutablePointer<CChar>?
            let code = sqlite3_exec(handle, sql, nil, nil, &message)
            defer { sqlite3_free(message) }
            guard code == SQLITE_OK else {
                throw RawDatabaseError(message: message.map { String(cString: $0) } ?? "\(code)")
            }
        }
    }

    /// The first column of every row of a query, as text.
    func column(_ sql: String) throws -> [String] {
        try withConnection { handle in
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
                throw RawDatabaseError(message: String(cString: sqlite3_errmsg(handle)))
            }
            defer { sqlite3_finalize(statement) }
            var values: [String] = []
            while sqlite3_step(statement) == SQLITE_ROW {
                values.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "NULL")
            }
            return values
        }
    }

    private func withConnection<T>(_ body: (OpaquePointer) throws -> T) throws -> T {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK,
            let handle
        else {
            sqlite3_close_v2(handle)
            throw RawDatabaseError(message: "cannot open \(path)")
        }
        defer { sqlite3_close_v2(handle) }
        return try body(handle)
    }
}

struct RawDatabaseError: Error {
    let message: String
}

/// What a store file's schema is: every table and index with its SQL, and the columns of
/// `records` and `collections`; a migrated file must have the shape of a new one.
func schemaShape(of file: URL) throws -> [String] {
    let raw = RawDatabase(path: file.path(percentEncoded: false))
    return try raw.column("SELECT type || ' ' || name || ' ' || sql FROM sqlite_master ORDER BY name")
        + raw.column("SELECT name || ' ' || type || ' ' || pk FROM pragma_table_info('records')")
        + raw.column("SELECT name || ' ' || type || ' ' || pk FROM pragma_table_info('collections')")
}

/// The bytes of the file and of its `-wal` and `-shm` companions, to show a failed open
/// left everything as it was.
func fileSnapshot(_ url: URL) -> [String: Data] {
    var snapshot: [String: Data] = [:]
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let path = url.path(percentEncoded: false) + suffix
        if let data = FileManager.default.contents(atPath: path) { snapshot[suffix] = data }
    }
    return snapshot
}

extension Sync {
    /// Performs a request built from its parts; the response may be ignored.
    @discardableResult
    func send(
        _ method: SyncMethod,
        _ path: String,
        body: JSONValue? = nil,
        query: [URLQueryItem] = []
    ) async throws(SyncError) -> SyncResponse {
        try await perform(SyncRequest(method: method, url: url(path), body: body, query: query))
    }
}

/// The tables of earlier schemas, as those versions of the store created them, to open and
/// migrate files made by them.
enum EarlierSchema {
    /// Schema 1: records without versions.
    static let version1 = tables(extraColumns: "", userVersion: 1)
    /// Schema 2: a version per record.
    static let version2 = tables(extraColumns: "    version INTEGER NOT NULL DEFAULT 1,\n", userVersion: 2)
    /// Schema 3: records clustered by `(collection, seq)`, each able to carry its
    /// collection's next id.
    static let version3 = """
        \(collectionsTable)
        CREATE TABLE records(
            collection TEXT NOT NULL,
            seq INTEGER NOT NULL,
            id TEXT NOT NULL,
            json TEXT NOT NULL,
            version INTEGER NOT NULL DEFAULT 1,
            next_id INTEGER,
            PRIMARY KEY (collection, seq)
        ) WITHOUT ROWID;
        CREATE UNIQUE INDEX records_key ON records(collection, id);
        PRAGMA application_id = \(0x4B65_656C);
        PRAGMA user_version = 3;

        """

    /// Schema 4: records keyed by rowid (their `seq`), found through `(id, collection)`.
    static let version4 = """
        \(collectionsTable)
        CREATE TABLE records(
            seq INTEGER PRIMARY KEY,
            collection TEXT NOT NULL,
            id TEXT NOT NULL,
            json TEXT NOT NULL,
            version INTEGER NOT NULL DEFAULT 1,
            next_id INTEGER
        );
        CREATE UNIQUE INDEX records_key ON records(id, collection);
        CREATE INDEX records_order ON records(collection, seq);
        PRAGMA application_id = \(0x4B65_656C);
        PRAGMA user_version = 4;

        """

    /// A file named `name` in `directory`, made by running `script` (an earlier schema's
    /// tables and its rows), and a raw connection to it.
    static func file(named name: String, in directory: URL, _ script: String) throws -> (URL, RawDatabase) {
        let file = directory.appending(path: name)
        let raw = RawDatabase(path: file.path(percentEncoded: false))
        try raw.execute(script)
        return (file, raw)
    }

    /// The write-ahead log and the `collections` table, alike in every earlier schema.
    private static let collectionsTable = """
        PRAGMA journal_mode=WAL;
        CREATE TABLE collections(
            path TEXT PRIMARY KEY NOT NULL,
            next_id INTEGER NOT NULL DEFAULT 1
        ) WITHOUT ROWID;
        """

    private static func tables(extraColumns: String, userVersion: Int) -> String {
        """
        \(collectionsTable)
        CREATE TABLE records(
            collection TEXT NOT NULL REFERENCES collections(path) ON DELETE CASCADE,
            id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            json TEXT NOT NULL,
        \(extraColumns)    PRIMARY KEY (collection, id)
        );
        CREATE UNIQUE INDEX records_order ON records(collection, seq);
        PRAGMA application_id = \(0x4B65_656C);
        PRAGMA user_version = \(userVersion);

        """
    }
}
