import CKeelSQLite
import Foundation
import Keel
import Synchronization

/// The same-work floor of `SQLiteSync` in `store_write_read` and `store_write_read_memory`: a
/// store that answers requests named by URL, through an API of the same shape as Keel's `Sync`.
///
/// What Keel's workload observably does through `perform(_:)` and the machine floor (raw
/// statements bound with the loop's `i`) does not:
/// - a request names its resource by URL (`/notes`, `/notes/7`), so the store reads the
///   collection and the id from the URL's path, and finds the collection's table by name
///   (a store holds any number of collections; the first write to one makes its table);
/// - a create's body is an attribute object whose id is found by name (`"id"`);
/// - a create answers with the stored record, and every answer with one record carries its
///   version as its `ETag` (a record has a version, 1 when created, that `If-Match` tests),
///   so the store keeps a version per record;
/// - `perform` is `async` and callable from any task (a `Sync` is `Sendable`), so each
///   request holds the connection's lock, as an in-memory `SQLiteSync` runs a request on the
///   calling thread under its lock;
/// - on a file, each create is durable when it returns: its own transaction, committed to the
///   write-ahead log with `synchronous=FULL` (one `fdatasync` a create), as `SQLiteSync`'s is.
///   The machine floor does this too; the table the floor writes (`id`, `version`, `json`) is
///   its own, where `SQLiteSync`'s schema (which indexes records by collection, and writes
///   more pages a commit) is Keel's bookkeeping.
///
/// Bodies are Keel's `JSONValue`s, written by Keel's writer and parsed by Keel's parser, as
/// the floors of the store anchors do (`store_fetch_all_*`, `store_create`): the floors' own
/// writer and parser (the machine floor's) took about 83 k of this floor's 127 k instructions
/// a note, five times Keel's, and a floor that spends its time on a slower JSON layer says
/// nothing about the store.
final class PlainRecordStore: Sendable {
    /// What a request asks for.
    enum Method: Sendable {
        case create
        case read
    }

    /// One request: the method, the resource's URL and the body.
    struct Request: Sendable {
        let method: Method
        let url: URL
        let body: JSONValue?
    }

    /// One answer: a record or a list of records, and the headers.
    struct Response: Sendable {
        let body: JSONValue?
        let headers: [String: String]
    }

    /// The connection, one request at a time.
    private let connection: Mutex<Connection>

    /// A store on the database at `path` (`":memory:"`: a new one in memory), opened as
    /// `SQLiteSync` opens its file: write-ahead log, `synchronous=FULL`.
    init(path: String) throws {
        connection = Mutex(try Connection(path: path))
    }

    /// Performs one request.
    func perform(_ request: Request) async throws -> Response {
        try connection.withLock { connection in try connection.perform(request) }
    }
}

extension PlainRecordStore {
    /// The `ETag` headers of the first versions, made once (answers share them).
    static let etagHeaders: [[String: String]] = (0..<64).map { ["etag": "\"\($0)\""] }

    /// The prepared statements of one collection's table.
    struct Table {
        let path: String
        let insert: OpaquePointer
        let list: OpaquePointer
        let single: OpaquePointer
    }

    /// A database with a table of records per collection, and its statements.
    final class Connection {
        let database: RawSQLiteDatabase
        let begin: OpaquePointer
        let commit: OpaquePointer
        /// The collections' tables, found by path.
        var tables: [Table] = []

        init(path: String) throws {
            database = try RawSQLiteDatabase(path: path)
            try database.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;")
            begin = try database.prepare("BEGIN IMMEDIATE")
            commit = try database.prepare("COMMIT")
        }

        deinit {
            for table in tables {
                for statement in [table.insert, table.list, table.single] { sqlite3_finalize(statement) }
            }
            sqlite3_finalize(begin)
            sqlite3_finalize(commit)
        }

        /// Performs one request: a create of a record in a collection, a read of a collection
        /// or a read of one record.
        func perform(_ request: Request) throws -> Response {
            let path = request.url.path
            switch request.method {
            case .create:
                let body = try unwrap(request.body, "a create without a body")
                let id = try unwrap(body["id"]?.intValue, "a create without an integer id")
                let table = try self.table(path)
                let json = body.description
                try database.run(begin)
                try database.check(sqlite3_bind_int64(table.insert, 1, Int64(id)))
                try json.withCString { text in
                    try database.check(sqlite3_bind_text(table.insert, 2, text, -1, rawSQLiteTransient))
                }
                try database.run(table.insert)
                try database.run(commit)
                return Response(body: body, headers: PlainRecordStore.etagHeaders[1])
            case .read:
                if let slash = path.lastIndex(of: "/"), let id = Int(path[path.index(after: slash)...]) {
                    return try read(id: id, in: try table(String(path[..<slash])))
                }
                return try list(try table(path))
            }
        }

        /// The table of the collection at `path`, made on first use.
        private func table(_ path: String) throws -> Table {
            if let table = tables.first(where: { $0.path == path }) { return table }
            let name = "records\(tables.count)"
            try database.execute(
                "CREATE TABLE \(name)(id INTEGER PRIMARY KEY, version INTEGER NOT NULL, json TEXT NOT NULL)"
            )
            let table = Table(
                path: path,
                insert: try database.prepare("INSERT INTO \(name)(id, version, json) VALUES (?1, 1, ?2)"),
                list: try database.prepare("SELECT version, json FROM \(name) ORDER BY id"),
                single: try database.prepare("SELECT version, json FROM \(name) WHERE id = ?1")
            )
            tables.append(table)
            return table
        }

        /// Every record of `table`, in id order.
        private func list(_ table: Table) throws -> Response {
            var records: [JSONValue] = []
            var code = sqlite3_step(table.list)
            while code == SQLITE_ROW {
                records.append(try parsedRow(table.list))
                code = sqlite3_step(table.list)
            }
            sqlite3_reset(table.list)
            try database.check(code, expected: SQLITE_DONE)
            return Response(body: .array(records), headers: [:])
        }

        /// The record with `id` in `table`, with its version as its `ETag`.
        private func read(id: Int, in table: Table) throws -> Response {
            try database.check(sqlite3_bind_int64(table.single, 1, Int64(id)))
            defer { sqlite3_reset(table.single) }
            try expect(sqlite3_step(table.single) == SQLITE_ROW, "record \(id) is missing")
            let version = Int(sqlite3_column_int64(table.single, 0))
            let headers =
                PlainRecordStore.etagHeaders.indices.contains(version)
                ? PlainRecordStore.etagHeaders[version] : ["etag": "\"\(version)\""]
            return Response(body: try parsedRow(table.single), headers: headers)
        }

        /// The JSON text in column 1 of the current row, parsed by Keel's parser.
        private func parsedRow(_ statement: OpaquePointer) throws -> JSONValue {
            let text = try unwrap(sqlite3_column_blob(statement, 1), "a NULL json column")
            return try JSONValue.parse(
                UnsafeRawBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, 1)))
            )
        }
    }
}
