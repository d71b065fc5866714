import CKeelSQLite
import Foundation
import Keel

/// One open sqlite3 connection with a cache of prepared statements.
///
/// Not thread-safe by itself: ``SQLiteSync`` keeps it inside a `Lock`, so exactly one
/// operation uses it at a time.
final class SQLiteConnection {
    // The properties that every operation reads are not checked for exclusive access at run
    // time: one operation at a time uses the connection (see above), and none of them is
    // changed while a use of it is under way; each check cost about 85 instructions.

    /// The database path, for error messages (`:memory:` for an in-memory store).
    let path: String
    @exclusivity(unchecked) private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    /// The statements of ``SQLiteStatement``, by their raw value, once prepared.
    @exclusivity(unchecked) private var heldStatements = [OpaquePointer?](
        repeating: nil,
        count: SQLiteStatement.allCases.count
    )
    /// The file, while this connection has it open (``OpenStoreFiles``).
    private var openFile: OpenStoreFiles.Identity?
    /// The next ids this connection's creates left (see ``SQLiteNextIDMemo``).
    @exclusivity(unchecked) var nextIDMemo = SQLiteNextIDMemo()
    /// Collection numbers by path, once read from a committed row: a collection keeps its
    /// number for the life of the file (its row is never deleted), so they hold across
    /// transactions, connections and processes.
    var collectionNumbers: [String: Int] = [:]
    /// Whether the open transaction created a collection's row: numbers read in it might
    /// be rolled back, and are not kept.
    var createdCollectionInTransaction = false

    /// Opens the database file without reading it: read-write (creating the file when it
    /// is missing), read-only, or as an immutable file (see ``SQLiteOpenMode``).
    init(path: String, mode: SQLiteOpenMode) throws(SQLiteStoreError) {
        self.path = path
        try SQLiteLibrary.load()
        var handle: OpaquePointer?
        // No mutex of SQLite's own: a connection is not `Sendable`, and its owner keeps it in a
        // `Lock`, so one thread at a time uses it (SQLite's multi-thread mode). SQLite's mutex
        // would be taken and released again on every call into the connection.
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        var filename = path
        switch mode {
        case .readWrite: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .immutable:
            flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            filename = Self.immutableURI(path)
        }
        let code = sqlite3_open_v2(filename, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            // sqlite3_open_v2 returns a handle even on failure; it must still be closed.
            sqlite3_close_v2(handle)
            throw Self.error(code: code, message: message, path: path, opening: true)
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
        if mode != .immutable, path != ":memory:" { openFile = OpenStoreFiles.opened(path) }
    }

    /// A URI filename that opens `path` as immutable: SQLite reads it without locks and
    /// without a write-ahead log, so it needs no `-shm` or `-wal` file (`%`, `?` and `#`
    /// and every byte outside the unreserved set are percent-encoded).
    static func immutableURI(_ path: String) -> String {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8)
        let digits = Array("0123456789ABCDEF")
        var uri = "file:"
        for byte in path.utf8 {
            if unreserved.contains(byte) {
                uri.append(Character(UnicodeScalar(byte)))
            } else {
                uri += "%\(digits[Int(byte >> 4)])\(digits[Int(byte & 0x0F)])"
            }
        }
        return uri + "?immutable=1"
    }

    deinit { close() }

    /// Finalizes every statement and closes the connection; later calls throw `.closed`.
    func close() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements.removeAll()
        for statement in heldStatements { sqlite3_finalize(statement) }
        heldStatements = heldStatements.map { _ in nil }
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
        if let openFile { OpenStoreFiles.closed(openFile) }
        openFile = nil
        nextIDMemo.forget()
        collectionNumbers = [:]
    }

    var isOpen: Bool { handle != nil }

    /// Whether the connection only reads: opened read-only, or SQLite fell back to
    /// read-only because the file or its file system cannot be written.
    var isReadOnly: Bool {
        guard let handle else { return false }
        return sqlite3_db_readonly(handle, "main") == 1
    }

    /// Whether a transaction is open (SQLite rolls some back by itself after an error).
    var isInTransaction: Bool {
        guard let handle else { return false }
        return sqlite3_get_autocommit(handle) == 0
    }

    /// SQLite's data version of the main database (`SQLITE_FCNTL_DATA_VERSION`): a number
    /// that changes with every commit to the file, this connection's own and any other
    /// connection's (seen when this one next begins a transaction); `nil` when the library
    /// cannot tell (SQLite before 3.25) or the connection is closed.
    ///
    /// A file control, not a statement: `PRAGMA data_version`, which changes only with
    /// other connections' commits, would be a statement to step on every write.
    func dataVersion() -> UInt32? {
        guard let handle else { return nil }
        var version: UInt32 = 0
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_DATA_VERSION, &version) == SQLITE_OK else {
            return nil
        }
        return version
    }

    func setBusyTimeout(milliseconds: Int32) {
        if let handle { sqlite3_busy_timeout(handle, milliseconds) }
    }

    // MARK: - Statements

    /// The rowid of the row the last `INSERT` on this connection added.
    func lastInsertedRowid() -> Int {
        guard let handle else { return 0 }
        return Int(sqlite3_last_insert_rowid(handle))
    }

    /// How many rows the last `INSERT`, `UPDATE` or `DELETE` on this connection changed.
    func changedRows() -> Int {
        guard let handle else { return 0 }
        return Int(sqlite3_changes(handle))
    }

    /// Runs SQL that returns no rows of interest (one or more statements).
    func execute(_ sql: String) throws(SQLiteStoreError) {
        let handle = try requireHandle()
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        let message = errorMessage.map { String(cString: $0) }
        sqlite3_free(errorMessage)
        guard code == SQLITE_OK else { throw failure(code, message: message) }
    }

    // MARK: - Transactions

    /// Begins a transaction: `BEGIN IMMEDIATE` (the write lock up front) when `immediate`,
    /// else `BEGIN`; prepared once, like ``commit()`` and ``rollback()``.
    func begin(immediate: Bool) throws(SQLiteStoreError) {
        createdCollectionInTransaction = false
        try runBound(immediate ? .beginImmediate : .begin)
    }

    /// Commits the open transaction.
    func commit() throws(SQLiteStoreError) {
        try runBound(.commit)
    }

    /// Rolls the open transaction back.
    func rollback() throws(SQLiteStoreError) {
        try runBound(.rollback)
    }

    /// Runs a query with bound text or integer parameters and returns each row's columns
    /// as text (`nil` for NULL).
    func rows(_ sql: String, _ parameters: [SQLiteValue] = []) throws(SQLiteStoreError) -> [[String?]] {
        var result: [[String?]] = []
        try query(sql, parameters) { (statement: SQLiteRow) in
            result.append((0..<statement.columnCount).map { statement.text(at: $0) })
        }
        return result
    }

    /// Runs a query and calls `body` for each row.
    func query(
        _ sql: String,
        _ parameters: [SQLiteValue] = [],
        _ body: (SQLiteRow) throws(SQLiteStoreError) -> Void
    ) throws(SQLiteStoreError) {
        try step(try prepare(sql), parameters, body)
    }

    /// Runs one of the held statements and calls `body` for each row.
    func query(
        _ statement: SQLiteStatement,
        _ parameters: [SQLiteValue] = [],
        _ body: (SQLiteRow) throws(SQLiteStoreError) -> Void
    ) throws(SQLiteStoreError) {
        try step(try prepare(statement), parameters, body)
    }

    /// Runs a statement that changes rows.
    func run(_ sql: String, _ parameters: [SQLiteValue] = []) throws(SQLiteStoreError) {
        try query(sql, parameters) { _ in }
    }

    /// Runs one of the held statements that changes rows.
    func run(_ statement: SQLiteStatement, _ parameters: [SQLiteValue] = []) throws(SQLiteStoreError) {
        try query(statement, parameters) { _ in }
    }

    private func prepare(_ sql: String) throws(SQLiteStoreError) -> OpaquePointer {
        if let cached = statements[sql] { return cached }
        let statement = try compile(sql)
        statements[sql] = statement
        return statement
    }

    /// The held statement, prepared on first use.
    func prepare(_ statement: SQLiteStatement) throws(SQLiteStoreError) -> OpaquePointer {
        if let held = heldStatements[statement.rawValue] { return held }
        let compiled = try compile(statement.sql)
        heldStatements[statement.rawValue] = compiled
        return compiled
    }

    private func compile(_ sql: String) throws(SQLiteStoreError) -> OpaquePointer {
        let handle = try requireHandle()
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(code) }
        return statement
    }

    /// Binds the parameters, steps through the rows and resets the statement.
    private func step(
        _ statement: OpaquePointer,
        _ parameters: [SQLiteValue],
        _ body: (SQLiteRow) throws(SQLiteStoreError) -> Void
    ) throws(SQLiteStoreError) {
        // Every use binds all of the statement's parameters again, so they are not cleared
        // (text bound in place points at memory that is gone after the step).
        defer { sqlite3_reset(statement) }
        try bind(parameters[...], to: statement) { () throws(SQLiteStoreError) in
            while true {
                let code = sqlite3_step(statement)
                if code == SQLITE_DONE { return }
                guard code == SQLITE_ROW else { throw failure(code) }
                try body(SQLiteRow(statement: statement))
            }
        }
    }

    /// Binds the parameters, then runs `body` while the bound text is alive.
    ///
    /// Text is bound in place (`SQLITE_STATIC`) from the string's or the data's own UTF-8
    /// bytes, without SQLite's copy, so `body` must do every step that reads it.
    private func bind(
        _ parameters: ArraySlice<SQLiteValue>,
        to statement: OpaquePointer,
        _ body: () throws(SQLiteStoreError) -> Void
    ) throws(SQLiteStoreError) {
        guard let parameter = parameters.first else { return try body() }
        let index = Int32(parameters.startIndex + 1)
        let rest = parameters.dropFirst()
        switch parameter {
        case .integer(let value):
            try check(sqlite3_bind_int64(statement, index, Int64(value)))
            try bind(rest, to: statement, body)
        case .text(var value):
            let outcome = value.withUTF8 { bytes in
                Result { () throws(SQLiteStoreError) in
                    try check(Self.bindText(UnsafeRawBufferPointer(bytes), to: statement, at: index))
                    try bind(rest, to: statement, body)
                }
            }
            try outcome.get()
        case .utf8(let data):
            let outcome = data.withUnsafeBytes { bytes in
                Result { () throws(SQLiteStoreError) in
                    try check(Self.bindText(bytes, to: statement, at: index))
                    try bind(rest, to: statement, body)
                }
            }
            try outcome.get()
        }
    }

    /// Binds UTF-8 bytes as text without a copy; empty text (whose buffer may have no
    /// address, which SQLite would take for NULL) is bound as a copy of nothing.
    static func bindText(_ bytes: UnsafeRawBufferPointer, to statement: OpaquePointer, at index: Int32)
        -> Int32
    {
        guard let start = bytes.baseAddress, !bytes.isEmpty else {
            return sqlite3_bind_text(statement, index, "", 0, transient)
        }
        return sqlite3_bind_text(statement, index, start.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil)
    }

    /// Throws the connection's error unless `code` is `SQLITE_OK`.
    func check(_ code: Int32) throws(SQLiteStoreError) {
        guard code == SQLITE_OK else { throw failure(code) }
    }

    // MARK: - Errors

    private func requireHandle() throws(SQLiteStoreError) -> OpaquePointer {
        guard let handle else { throw .closed(path: path) }
        return handle
    }

    /// The error for a failed call, with the connection's message.
    func failure(_ code: Int32, message: String? = nil) -> SQLiteStoreError {
        let detail =
            message ?? handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
        let extended = handle.map { sqlite3_extended_errcode($0) } ?? code
        return Self.error(code: extended == 0 ? code : extended, message: detail, path: path, opening: false)
    }

    /// Maps a SQLite result code to the store's error.
    static func error(code: Int32, message: String, path: String, opening: Bool) -> SQLiteStoreError {
        switch code & 0xFF {
        case SQLITE_NOTADB: return .notADatabase(path: path)
        case SQLITE_CORRUPT: return .corrupt(path: path, message: message)
        case SQLITE_FULL: return .diskFull(path: path)
        case SQLITE_READONLY: return .readOnly(path: path)
        case SQLITE_IOERR: return .ioError(path: path, message: message)
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy(path: path)
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH: return .cannotOpen(path: path, message: message)
        default:
            return opening
                ? .cannotOpen(path: path, message: message) : .sqlite(path: path, code: code, message: message)
        }
    }

    /// `SQLITE_TRANSIENT`: SQLite copies bound text before the call returns.
    private static var transient: sqlite3_destructor_type {
        unsafeBitCast(-1 as Int, to: sqlite3_destructor_type.self)
    }
}

/// How a connection opens its file; ``SQLiteFileAccess`` decides.
enum SQLiteOpenMode: Equatable {
    /// Read and write, creating the file when it is missing.
    case readWrite
    /// Only read (`SQLITE_OPEN_READONLY`), with the write-ahead log's `-wal` and `-shm` files
    /// as they are, so changes committed by writers are seen.
    case readOnly
    /// Only read, as a file nobody changes (`immutable=1`): for a read-only file in a
    /// directory that cannot be written and without a `-wal` file, where SQLite could not
    /// create the `-shm` index that a read-only write-ahead-logged file needs. Changes that
    /// another process makes while the connection is open are not seen.
    case immutable
}

/// A parameter bound to a statement.
enum SQLiteValue {
    case integer(Int)
    case text(String)
    /// UTF-8 text given as bytes (serialized JSON), bound without making a `String`.
    case utf8(Data)
}

/// The current row of a statement, valid only inside the `query` callback.
struct SQLiteRow {
    /// The statement, stepped to the row.
    let statement: OpaquePointer

    var columnCount: Int32 { sqlite3_column_count(statement) }

    func integer(at column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }

    /// The column as an integer, or `nil` for NULL.
    func optionalInteger(at column: Int32) -> Int? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : integer(at: column)
    }

    func text(at column: Int32) -> String? {
        guard sqlite3_column_type(statement, column) != SQLITE_NULL, let bytes = sqlite3_column_text(statement, column)
        else { return nil }
        return String(cString: bytes)
    }

    /// Parses the column's text as JSON, straight from SQLite's buffer (no copy).
    func json(at column: Int32) throws(JSONParseError) -> JSONValue {
        // The pointer must be fetched before the length (SQLite's documented order).
        let bytes = sqlite3_column_blob(statement, column)
        let count = Int(sqlite3_column_bytes(statement, column))
        return try JSONValue.parse(UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : count))
    }
}
