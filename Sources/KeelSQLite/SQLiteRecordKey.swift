/// Where schema 5 keeps a record: the rowid a record of an integer id is stored under, or
/// the second range, for every other id.
///
/// A collection has a number (its rowid in `collections`), and a record whose id is a
/// decimal integer in [0, 2³²) without a sign or leading zero (`7`, not `07` or `-7`) is
/// stored under the rowid *number* × 2³² + *id*: a read by id is one seek of the table,
/// and a create without an id appends at the end of its collection's range, so its commit
/// writes one page. Every other id (text, `007`, past 2³², or any id of a collection
/// numbered past 2³¹ − 1, which the positive rowids cannot hold) is stored under a
/// negative rowid and found through the partial unique index on `(collection, id)`.
/// An id is never in both ranges, so no id can name another record.
enum SQLiteRecordKey: Equatable {
    /// The rowid of a record whose id is an integer the collection's range holds.
    case integer(Int)
    /// A record of the second range, found by its collection's number and its id's text.
    case text

    /// The largest collection number whose records of integer ids have a range of rowids.
    static let largestNumber = Int(Int32.max)

    /// The key of the record `id` in the collection numbered `number`.
    init(_ id: String, number: Int) {
        guard let range = Self.range(of: number), let value = Self.integerID(id) else {
            self = .text
            return
        }
        self = .integer(range.lowerBound + value)
    }

    /// The rowids of the records of integer ids of the collection numbered `number`, or
    /// `nil` when the collection keeps every record in the second range.
    static func range(of number: Int) -> ClosedRange<Int>? {
        guard number >= 1, number <= largestNumber else { return nil }
        return (number << 32)...(number << 32 | 0xFFFF_FFFF)
    }

    /// The integer an id is, when it is one the integer range holds: decimal digits in
    /// [0, 2³²), without a sign or a leading zero, so that each such integer has exactly
    /// one text (`7`, never `07`).
    static func integerID(_ id: String) -> Int? {
        var id = id
        return id.withUTF8 { bytes -> Int? in
            guard let first = bytes.first, bytes.count <= 10, first != UInt8(ascii: "0") || bytes.count == 1 else {
                return nil
            }
            var value = 0
            for byte in bytes {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value <= 0xFFFF_FFFF ? value : nil
        }
    }
}
