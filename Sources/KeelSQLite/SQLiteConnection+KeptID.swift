import CKeelSQLite
import Keel

/// What an update keeps of the record it replaces, read in SQLite's C code: whether the
/// stored text is a JSON object, its id attribute and its version, without parsing the
/// record in Swift (about 10 k instructions for a note).
///
/// Keel's parser decides which records are damaged, and SQLite's JSON reading accepts a
/// little more than it does (bytes that are not UTF-8, numbers past `Double`'s range,
/// deeper nesting, and SQLite finds a repeated key's first value where Keel keeps the
/// last). So SQLite's answer is taken only for text where the two cannot differ
/// (``SQLiteConnection/isPlainObjectText(_:idAttribute:)``); any other record, and any
/// SQLite before 3.38 (no `->`), is read whole as before, so a damaged record fails an
/// update exactly as it did.
extension SQLiteConnection {
    /// The outcome of ``keptID(_:in:idAttribute:)``.
    enum KeptIDRead {
        /// There is no record with this id.
        case absent
        /// The record is a JSON object: its id attribute's value (`nil` when it has none)
        /// and its version.
        case found(JSONValue?, version: Int)
        /// SQLite's reading cannot stand for Keel's: read the whole record.
        case unchecked
    }

    /// Whether the library has `->` (SQLite 3.38).
    private static var readsJSONPaths: Bool { sqlite3_libversion_number() >= 3_038_000 }

    /// The id attribute's stored value and the version of the record `id`, when SQLite can
    /// vouch that the record is not damaged.
    ///
    /// - Parameters:
    ///   - id: The record's id, as a decoded path segment.
    ///   - collection: The collection path.
    ///   - idAttribute: The attribute that holds record ids.
    /// - Returns: The value and version, ``KeptIDRead/absent`` when there is no such record,
    ///   or ``KeptIDRead/unchecked`` when only reading the whole record can tell.
    func keptID(_ id: String, in collection: String, idAttribute: String) throws(SQLiteStoreError) -> KeptIDRead {
        var name = idAttribute
        let quotable = name.withUTF8 { !$0.isEmpty && !$0.contains(UInt8(ascii: "\"")) }
        guard quotable, Self.readsJSONPaths else { return .unchecked }
        guard let number = try collectionNumber(collection) else { return .absent }
        guard case .integer(let key) = SQLiteRecordKey(id, number: number) else { return .unchecked }
        let prepared = try prepare(.keptIDByKey)
        defer { sqlite3_reset(prepared) }
        try check(sqlite3_bind_int64(prepared, 1, Int64(key)))
        return try name.withUTF8 { nameBytes in
            Result { () throws(SQLiteStoreError) -> KeptIDRead in
                try check(Self.bindText(UnsafeRawBufferPointer(nameBytes), to: prepared, at: 2))
                let code = sqlite3_step(prepared)
                if code == SQLITE_DONE { return .absent }
                guard code == SQLITE_ROW else { throw failure(code) }
                return Self.keptID(of: SQLiteRow(statement: prepared), idAttribute: nameBytes)
            }
        }.get()
    }

    /// Reads a row of ``SQLiteStatement/keptIDByKey``.
    private static func keptID(of row: SQLiteRow, idAttribute: UnsafeBufferPointer<UInt8>) -> KeptIDRead {
        guard row.integer(at: 0) == 1, isPlainObjectText(row.bytes(at: 3), idAttribute: idAttribute) else {
            return .unchecked
        }
        let version = row.integer(at: 2)
        guard let valueText = row.bytes(at: 1) else { return .found(nil, version: version) }
        guard let value = try? JSONValue.parse(valueText) else { return .unchecked }
        return .found(value, version: version)
    }

    /// Whether stored text that SQLite reads as a JSON object reads the same with Keel's
    /// parser: printable ASCII without a backslash (so UTF-8, escapes, control characters
    /// and keys written two ways need no check), no exponent and no run of 300 digits (no
    /// number past `Double`'s range), fewer than `JSONValue.maximumParsingDepth` brackets,
    /// and the quoted id attribute at most once (no repeated id key).
    ///
    /// - Parameters:
    ///   - text: The stored text, or `nil` for NULL.
    ///   - idAttribute: The id attribute's name.
    /// - Returns: `true` when Keel parses the text to an object whose id attribute is the
    ///   value SQLite found.
    static func isPlainObjectText(_ text: UnsafeRawBufferPointer?, idAttribute: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let text else { return false }
        var brackets = 0
        var digits = 0
        var idKeys = 0
        var previous: UInt8 = 0
        for index in text.indices {
            let byte = text[index]
            guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return false }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
                guard digits < 300 else { return false }
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(previous) else { return false }
                digits = 0
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                brackets += 1
                guard brackets < JSONValue.maximumParsingDepth else { return false }
                digits = 0
            case UInt8(ascii: "\""):
                if isQuoted(idAttribute, at: index + 1, in: text) {
                    idKeys += 1
                    guard idKeys < 2 else { return false }
                }
                digits = 0
            default:
                digits = 0
            }
            previous = byte
        }
        return true
    }

    /// Whether `name` and a closing quote start at `start` in `text`.
    private static func isQuoted(_ name: UnsafeBufferPointer<UInt8>, at start: Int, in text: UnsafeRawBufferPointer)
        -> Bool
    {
        guard start + name.count < text.count, text[start + name.count] == UInt8(ascii: "\"") else { return false }
        for offset in name.indices where text[start + offset] != name[offset] { return false }
        return true
    }
}

extension SQLiteRow {
    /// The column's bytes in SQLite's buffer, valid until the statement moves on, or `nil`
    /// for NULL.
    func bytes(at column: Int32) -> UnsafeRawBufferPointer? {
        guard sqlite3_column_type(statement, column) != SQLITE_NULL else { return nil }
        // The pointer must be fetched before the length (SQLite's documented order).
        let bytes = sqlite3_column_blob(statement, column)
        return UnsafeRawBufferPointer(
            start: bytes,
            count: bytes == nil ? 0 : Int(sqlite3_column_bytes(statement, column))
        )
    }
}
