import CKeelSQLite
import Foundation

/// The statements of one record that every read by id, create, update and delete runs (and
/// those of every transaction), bound parameter by parameter instead of from an array of
/// ``SQLiteValue``s.
///
/// ``SQLiteConnection/query(_:_:_:)-(SQLiteStatement,_,_)`` takes an array, binds it by
/// recursion (a closure a parameter, to keep bound text alive) and calls a row closure that
/// can only hand its values out through captured variables: for a read by id that was
/// about 2.9 k instructions besides the row, and for a create about 1.4 k more to join its
/// parameters. These bind their few parameters directly and return the row's value.
extension SQLiteConnection {
    /// The value `read` makes of the first row of a held statement whose only parameter
    /// `?1` is a rowid, or `nil` when it has no row.
    ///
    /// - Parameters:
    ///   - statement: A statement that reads at most one row by its `?1`.
    ///   - key: The rowid.
    ///   - read: Makes the value of the row; it must not keep the row.
    /// - Returns: The value of the row, or `nil` when there is none.
    func firstRow<T>(
        of statement: SQLiteStatement,
        key: Int,
        _ read: (SQLiteRow) -> T
    ) throws(SQLiteStoreError) -> T? {
        let prepared = try prepare(statement)
        defer { sqlite3_reset(prepared) }
        try check(sqlite3_bind_int64(prepared, 1, Int64(key)))
        return try firstRow(of: prepared, read)
    }

    /// The value `read` makes of the first row of a held statement whose parameters are a
    /// collection number `?1` and an id's text `?2`, or `nil` when it has no row.
    ///
    /// - Parameters:
    ///   - statement: A statement that reads at most one row by its `?1` and `?2`.
    ///   - number: The collection's number.
    ///   - id: The id's text, bound in place for the step.
    ///   - read: Makes the value of the row; it must not keep the row.
    /// - Returns: The value of the row, or `nil` when there is none.
    func firstRow<T>(
        of statement: SQLiteStatement,
        number: Int,
        id: String,
        _ read: (SQLiteRow) -> T
    ) throws(SQLiteStoreError) -> T? {
        let prepared = try prepare(statement)
        defer { sqlite3_reset(prepared) }
        try check(sqlite3_bind_int64(prepared, 1, Int64(number)))
        var id = id
        return try id.withUTF8 { bytes in
            Result { () throws(SQLiteStoreError) -> T? in
                try check(Self.bindText(UnsafeRawBufferPointer(bytes), to: prepared, at: 2))
                return try firstRow(of: prepared, read)
            }
        }.get()
    }

    /// Inserts a record's row with ``SQLiteStatement/insertByKey`` under `key`, or with
    /// ``SQLiteStatement/insertByText`` below every rowid when `key` is `nil`.
    ///
    /// - Parameters:
    ///   - key: The record's rowid in its collection's integer range, or `nil` for the
    ///     second range.
    ///   - number: The collection's number.
    ///   - id: The id's text.
    ///   - seq: The record's place in its collection's insertion order.
    ///   - json: The record's JSON text, bound in place for the step.
    ///   - nextID: The collection's next id, kept with the record.
    func insertRow(
        key: Int?,
        number: Int,
        id: String,
        seq: Int,
        json: [UInt8],
        nextID: Int
    ) throws(SQLiteStoreError) {
        let prepared = try prepare(key == nil ? .insertByText : .insertByKey)
        defer { sqlite3_reset(prepared) }
        // `insertByText` has the parameters of `insertByKey` without its `?1`.
        var index: Int32 = 1
        if let key {
            try check(sqlite3_bind_int64(prepared, 1, Int64(key)))
            index = 2
        }
        try check(sqlite3_bind_int64(prepared, index, Int64(number)))
        try check(sqlite3_bind_int64(prepared, index + 2, Int64(seq)))
        try check(sqlite3_bind_int64(prepared, index + 4, Int64(nextID)))
        var id = id
        try id.withUTF8 { idBytes in
            json.withUnsafeBytes { jsonBytes in
                Result { () throws(SQLiteStoreError) in
                    try check(Self.bindText(UnsafeRawBufferPointer(idBytes), to: prepared, at: index + 1))
                    try check(Self.bindText(jsonBytes, to: prepared, at: index + 3))
                    _ = try firstRow(of: prepared) { _ in () }
                }
            }
        }.get()
    }

    /// Runs a held statement that changes rows, its parameters `?1`, `?2`, … the given
    /// integers (none for `BEGIN` or `COMMIT`), bound one by one.
    ///
    /// - Parameters:
    ///   - statement: A statement that returns no rows of interest.
    ///   - integers: Its parameters, in order.
    func runBound(_ statement: SQLiteStatement, integers: Int...) throws(SQLiteStoreError) {
        let prepared = try prepare(statement)
        defer { sqlite3_reset(prepared) }
        for (offset, value) in integers.enumerated() {
            try check(sqlite3_bind_int64(prepared, Int32(offset + 1), Int64(value)))
        }
        _ = try firstRow(of: prepared) { _ in () }
    }

    /// Stores a record's new JSON text under its rowid with ``SQLiteStatement/replaceByKey``.
    ///
    /// - Parameters:
    ///   - key: The record's rowid in its collection's integer range.
    ///   - json: The record's JSON text, bound in place for the step.
    func replaceRow(key: Int, json: [UInt8]) throws(SQLiteStoreError) {
        let prepared = try prepare(.replaceByKey)
        defer { sqlite3_reset(prepared) }
        try check(sqlite3_bind_int64(prepared, 2, Int64(key)))
        try json.withUnsafeBytes { jsonBytes in
            Result { () throws(SQLiteStoreError) in
                try check(Self.bindText(jsonBytes, to: prepared, at: 1))
                _ = try firstRow(of: prepared) { _ in () }
            }
        }.get()
    }

    /// Steps a bound statement once: the value `read` makes of its row, or `nil` when it
    /// has none.
    private func firstRow<T>(of statement: OpaquePointer, _ read: (SQLiteRow) -> T) throws(SQLiteStoreError) -> T? {
        let code = sqlite3_step(statement)
        if code == SQLITE_DONE { return nil }
        guard code == SQLITE_ROW else { throw failure(code) }
        return read(SQLiteRow(statement: statement))
    }
}
