/// A small JSON parser into ``PlainValue``: the floor of Keel's `JSONValue(parsing:)`.
///
/// It reads the UTF-8 bytes once, without a tokenizer, and builds standard dictionaries and
/// arrays, or, for rows of a fixed shape, values by slot of a ``SlotLayout``. It accepts
/// all valid JSON; it is less strict than Keel's parser about malformed input (it does not
/// reject leading zeros, for example), which only makes it faster.
struct PlainJSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses one JSON value that fills the whole text.
    static func parse(_ text: String) throws -> PlainValue {
        var text = text
        return try text.withUTF8 { bytes in
            var parser = PlainJSONParser(bytes: bytes)
            let value = try parser.parseValue()
            parser.skipWhitespace()
            guard parser.position == bytes.count else { throw parser.error("trailing text") }
            return value
        }
    }

    /// Parses a JSON array of objects whose keys are all in `layout`, into each object's
    /// values by slot, with the layout's defaults in the slots an object leaves out: the
    /// parse of rows of a fixed shape, without a dictionary per row.
    ///
    /// - Throws: ``PlainJSONError`` for text that is not JSON, not an array of objects, or
    ///   has a key outside the layout.
    static func parseRows(_ text: String, layout: SlotLayout) throws -> [ContiguousArray<PlainValue>] {
        var text = text
        return try text.withUTF8 { bytes in
            var parser = PlainJSONParser(bytes: bytes)
            let rows = try parser.parseRows(layout)
            parser.skipWhitespace()
            guard parser.position == bytes.count else { throw parser.error("trailing text") }
            return rows
        }
    }

    private mutating func parseRows(_ layout: SlotLayout) throws -> [ContiguousArray<PlainValue>] {
        guard consume(UInt8(ascii: "[")) else { throw error("expected an array") }
        var rows: [ContiguousArray<PlainValue>] = []
        if consume(UInt8(ascii: "]")) { return rows }
        repeat {
            rows.append(try parseRow(layout))
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "]")) else { throw error("expected ',' or ']'") }
        return rows
    }

    /// One object of a fixed shape: each key is matched by its bytes against the layout's
    /// keys, starting from the slot after the previous key's.
    private mutating func parseRow(_ layout: SlotLayout) throws -> ContiguousArray<PlainValue> {
        guard consume(UInt8(ascii: "{")) else { throw error("expected an object") }
        var values = layout.defaults
        if consume(UInt8(ascii: "}")) { return values }
        var slot = 0
        repeat {
            guard peek() == UInt8(ascii: "\"") else { throw error("expected a key") }
            slot = try parseKeySlot(layout, from: slot)
            guard consume(UInt8(ascii: ":")) else { throw error("expected ':'") }
            if let rowLayout = layout.rowLayouts[slot] {
                values[slot] = .array(try parseRows(rowLayout).map { .array(Array($0)) })
            } else {
                values[slot] = try parseValue()
            }
            slot += 1
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "}")) else { throw error("expected ',' or '}'") }
        return values
    }

    /// The slot of the key that comes next, searched from `first` round the layout.
    private mutating func parseKeySlot(_ layout: SlotLayout, from first: Int) throws -> Int {
        let start = position + 1
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else {
            let key = try parseString()
            guard let slot = layout.keys.firstIndex(of: key) else { throw error("key \(key) outside the layout") }
            return slot
        }
        let key = UnsafeBufferPointer(rebasing: bytes[start..<end])
        let count = layout.utf8Keys.count
        for offset in 0..<count {
            let slot = (first + offset) % count
            if layout.utf8Keys[slot].elementsEqual(key) {
                position = end + 1
                return slot
            }
        }
        throw error("a key outside the layout")
    }

    // MARK: - Values

    private mutating func parseValue() throws -> PlainValue {
        guard let byte = peek() else { throw error("unexpected end") }
        switch byte {
        case UInt8(ascii: "{"): return .object(try parseObject())
        case UInt8(ascii: "["): return .array(try parseArray())
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        default: return try parseNumber()
        }
    }

    private mutating func parseObject() throws -> PlainAttributes {
        position += 1
        var object = PlainAttributes()
        if consume(UInt8(ascii: "}")) { return object }
        repeat {
            guard peek() == UInt8(ascii: "\"") else { throw error("expected a key") }
            let key = try parseString()
            guard consume(UInt8(ascii: ":")) else { throw error("expected ':'") }
            object[key] = try parseValue()
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "}")) else { throw error("expected ',' or '}'") }
        return object
    }

    private mutating func parseArray() throws -> [PlainValue] {
        position += 1
        var array: [PlainValue] = []
        if consume(UInt8(ascii: "]")) { return array }
        repeat {
            array.append(try parseValue())
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "]")) else { throw error("expected ',' or ']'") }
        return array
    }

    // MARK: - Scalars

    private mutating func parseString() throws -> String {
        position += 1
        let start = position
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\""):
                defer { position += 1 }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            case UInt8(ascii: "\\"):
                return try parseEscapedString(from: start)
            default:
                position += 1
            }
        }
        throw error("unterminated string")
    }

    /// The slow path for a string with escapes: decodes it into a byte buffer.
    private mutating func parseEscapedString(from start: Int) throws -> String {
        var utf8 = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"): utf8.append(contentsOf: String(try parseUnicodeEscape()).utf8)
                default: utf8.append(escape)
                }
            default:
                utf8.append(byte)
            }
        }
        throw error("unterminated string")
    }

    /// Decodes the hex digits after `\u`, joining a surrogate pair; a lone surrogate
    /// becomes U+FFFD.
    private mutating func parseUnicodeEscape() throws -> Character {
        let first = try parseHex4()
        if (0xD800..<0xDC00).contains(first), position + 1 < bytes.count,
            bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
        {
            position += 2
            let second = try parseHex4()
            if (0xDC00..<0xE000).contains(second) {
                let scalar = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                return Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")
            }
        }
        return Character(Unicode.Scalar(first) ?? "\u{FFFD}")
    }

    private mutating func parseHex4() throws -> UInt32 {
        guard position + 4 <= bytes.count,
            let value = UInt32(
                String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<position + 4]), as: UTF8.self),
                radix: 16
            )
        else { throw error("bad \\u escape") }
        position += 4
        return value
    }

    private mutating func parseNumber() throws -> PlainValue {
        let start = position
        var isInteger = true
        var magnitude = 0
        var overflowed = false
        let isNegative = bytes[position] == UInt8(ascii: "-")
        if isNegative { position += 1 }
        scan: while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
                magnitude = sum
                overflowed = overflowed || overflow1 || overflow2
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-"):
                isInteger = false
            default:
                break scan
            }
            position += 1
        }
        let digits = position - start - (isNegative ? 1 : 0)
        guard digits > 0 else { throw error("expected a value") }
        if isInteger && !overflowed { return .int(isNegative ? -magnitude : magnitude) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let double = Double(text) else { throw error("bad number") }
        return .double(double)
    }

    private mutating func parseLiteral(_ literal: StaticString, _ value: PlainValue) throws -> PlainValue {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count,
            UnsafeBufferPointer(rebasing: bytes[position..<position + count]).elementsEqual(
                UnsafeBufferPointer(start: literal.utf8Start, count: count)
            )
        else { throw error("bad literal") }
        position += count
        return value
    }

    // MARK: - Helpers

    /// The next byte after any whitespace, not consumed.
    private mutating func peek() -> UInt8? {
        skipWhitespace()
        return position < bytes.count ? bytes[position] : nil
    }

    /// Consumes `byte` if it comes next after any whitespace.
    private mutating func consume(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        position += 1
        return true
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private func error(_ message: String) -> PlainJSONError {
        PlainJSONError(description: "\(message) at byte \(position)")
    }
}

/// Text that ``PlainJSONParser`` cannot read.
struct PlainJSONError: Error, CustomStringConvertible {
    let description: String
}
