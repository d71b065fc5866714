import CKeelSQLite

/// A failed sqlite3 call of a floor: its result code and SQLite's message.
struct RawSQLiteError: Error, CustomStringConvertible {
    let code: Int32
    let message: String

    var description: String { "sqlite3 error \(code): \(message)" }
}

/// The floors' sqlite3 connection: the C API with each result code checked, nothing else.
final class RawSQLiteDatabase {
    /// The connection handle, for direct sqlite3 calls.
    let handle: OpaquePointer

    /// Opens (or creates) the database at `path`; `":memory:"` for one in memory.
    init(path: String) throws {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        guard code == SQLITE_OK, let handle else {
            sqlite3_close_v2(handle)
            throw RawSQLiteError(code: code, message: "cannot open \(path)")
        }
        self.handle = handle
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs SQL text with `sqlite3_exec`.
    func execute(_ sql: String) throws {
        try check(sqlite3_exec(handle, sql, nil, nil, nil))
    }

    /// Prepares a statement that the caller reuses and finalizes.
    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil))
        guard let statement else { throw RawSQLiteError(code: SQLITE_MISUSE, message: "empty statement") }
        return statement
    }

    /// Throws unless `code` is `SQLITE_OK` or `expected`.
    func check(_ code: Int32, expected: Int32 = SQLITE_OK) throws {
        guard code == SQLITE_OK || code == expected else {
            throw RawSQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)))
        }
    }

    /// Steps a statement that returns no rows, then resets it for the next use.
    func run(_ statement: OpaquePointer) throws {
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        try check(code, expected: SQLITE_DONE)
    }
}

/// `SQLITE_TRANSIENT`: SQLite copies bound text before the call returns.
let rawSQLiteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
