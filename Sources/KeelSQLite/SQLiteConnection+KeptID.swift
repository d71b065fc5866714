import CKeelSQLite
import Keel

/// What an update keeps of the record it replaces: whether the stored text is a JSON
/// object, its id attribute and its version, read without parsing the record into values
/// when ``PlainRecordText`` can vouch for the text.
///
/// Any other text is left to a read of the whole record, so a damaged record fails an
/// update exactly as it did.
extension SQLiteConnection {
    /// The outcome of ``keptID(_:in:idAttribute:)``.
    enum KeptIDRead {
        /// There is no record with this id.
        case absent
        /// The record is a JSON object: its id attribute's value (`nil` when it has none)
        /// and its version.
        case found(JSONValue?, version: Int)
        /// Only Keel's parser can read this record: read it whole.
        case unchecked
    }

    /// The id attribute's stored value and the version of the record `id`, when its text
    /// is plain enough to check without parsing it.
    ///
    /// - Parameters:
    ///   - id: The record's id, as a decoded path segment.
    ///   - collection: The collection path.
    ///   - idAttribute: The attribute that holds record ids.
    /// - Returns: The value and version, ``KeptIDRead/absent`` when there is no such record,
    ///   or ``KeptIDRead/unchecked`` when only reading the whole record can tell.
    func keptID(_ id: String, in collection: String, idAttribute: String) throws(SQLiteStoreError) -> KeptIDRead {
        guard let number = try collectionNumber(collection) else { return .absent }
        let key = SQLiteRecordKey(id, number: number)
        var name = idAttribute
        return try name.withUTF8 { name in
            Result { () throws(SQLiteStoreError) -> KeptIDRead in
                let found: KeptIDRead? =
                    switch key {
                    case .integer(let key):
                        try firstRow(of: .recordByKey, key: key) { Self.keptID(of: $0, idAttribute: name) }
                    case .text:
                        try firstRow(of: .recordByText, number: number, id: id) {
                            Self.keptID(of: $0, idAttribute: name)
                        }
                    }
                return found ?? .absent
            }
        }.get()
    }

    /// Reads a row of ``SQLiteStatement/recordByKey`` or ``SQLiteStatement/recordByText``.
    private static func keptID(of row: SQLiteRow, idAttribute: UnsafeBufferPointer<UInt8>) -> KeptIDRead {
        let text = row.bytes(at: 0)
        guard case .object(let range) = PlainRecordText.scan(text, idAttribute: idAttribute) else { return .unchecked }
        let version = row.integer(at: 1)
        guard let range else { return .found(nil, version: version) }
        let valueText = UnsafeRawBufferPointer(rebasing: text[range])
        if let integer = smallInteger(valueText) { return .found(.int(integer), version: version) }
        guard let value = try? JSONValue.parse(valueText) else { return .unchecked }
        return .found(value, version: version)
    }

    /// The value of 1 to 18 decimal digits, which Keel's parser reads as this `.int`
    /// (about 2 k instructions less than parsing them); `nil` for any other text.
    static func smallInteger(_ text: UnsafeRawBufferPointer) -> Int? {
        guard (1...18).contains(text.count) else { return nil }
        var value = 0
        for byte in text {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}

extension SQLiteRow {
    /// The column's bytes in SQLite's buffer, valid until the statement moves on (empty for
    /// NULL).
    func bytes(at column: Int32) -> UnsafeRawBufferPointer {
        // The pointer must be fetched before the length (SQLite's documented order).
        let bytes = sqlite3_column_blob(statement, column)
        return UnsafeRawBufferPointer(
            start: bytes,
            count: bytes == nil ? 0 : Int(sqlite3_column_bytes(statement, column))
        )
    }
}
