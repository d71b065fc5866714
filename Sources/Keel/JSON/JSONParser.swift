/// A strict RFC 8259 parser over UTF-8 bytes.
///
/// The parser is iterative: open arrays and objects live on explicit stacks rather than on the
/// call stack, so deeply nested input ends in ``JSONParseError/Kind/tooDeeplyNested`` and
/// never in a stack overflow. The elements of all open arrays share one stack, the members of
/// all open objects another; when a container closes, its part of the stack is moved (not
/// copied) into the new array or object.
struct JSONParser: ~Copyable {
    /// An array or object that has been opened but not yet closed.
    private struct Frame {
        /// Whether the container is an object (otherwise an array).
        var isObject: Bool
        /// Where the container's members start: on the value stack for an array, on the
        /// member stack for an object.
        var start: Int
        /// The key under which the container goes when its parent is an object.
        var parentKey: String
        /// For an object: the key cache slots of its keys so far, one bit each.
        var keySlots: UInt64 = 0
        /// For an object: whether two of its keys may be equal, because they share a key
        /// cache slot or one was not cached.
        var mayRepeatKeys = false
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var position: Int
    /// Reused storage for strings that contain escape sequences.
    var scratch: [UInt8] = []
    /// Recently parsed object keys, so that the keys repeated by every object of an array
    /// are decoded once.
    private var keyCache = KeyCache()

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        position = 0
    }

    /// Parses one JSON value that must span all of `bytes` (apart from whitespace and an
    /// optional UTF-8 byte order mark).
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes.assumingMemoryBound(to: UInt8.self))
        return try parser.parseDocument()
    }

    // MARK: - Document and containers

    private mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            position = 3
        }
        let value = try parseNestedValue()
        skipWhitespace()
        if position != bytes.count { throw error(.trailingContent, at: position) }
        return value
    }

    /// Parses a value, including any arrays and objects nested in it, without recursion.
    private mutating func parseNestedValue() throws(JSONParseError) -> JSONValue {
        var frames = Stack<Frame>()
        // The elements of the open arrays, innermost last.
        var values = Stack<JSONValue>()
        // The keys and values of the open objects, innermost last.
        var members = Stack<JSONObject.Element>()
        // The key of the member being parsed in the innermost open object.
        var key = ""

        nextValue: while true {
            skipWhitespace()
            guard position < bytes.count else { throw error(.unexpectedEnd, at: position) }
            var value: JSONValue
            switch bytes[position] {
            case UInt8(ascii: "\""):
                value = .string(try parseString())
            case UInt8(ascii: "{"):
                guard frames.count < JSONValue.maximumParsingDepth else {
                    throw error(.tooDeeplyNested, at: position)
                }
                position += 1
                skipWhitespace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    value = .object(JSONObject())
                } else {
                    frames.push(Frame(isObject: true, start: members.count, parentKey: key))
                    key = try parseKey(in: &frames)
                    continue nextValue
                }
            case UInt8(ascii: "["):
                guard frames.count < JSONValue.maximumParsingDepth else {
                    throw error(.tooDeeplyNested, at: position)
                }
                position += 1
                skipWhitespace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    value = .array(JSONArray())
                } else {
                    frames.push(Frame(isObject: false, start: values.count, parentKey: key))
                    continue nextValue
                }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = try parseNumber()
            case UInt8(ascii: "t"):
                try parseLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try parseLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try parseLiteral("null")
                value = .null
            default:
                throw unexpectedByte(at: position)
            }

            // Hand the finished value to the innermost open container, closing containers
            // for as long as their closing bracket follows. The key and the value are moved
            // into the container (each is set again before it is read), and the frame is
            // read in place, so that none of them is copied.
            while frames.count > 0 {
                let isObject = frames.top.isObject
                if isObject {
                    members.push((Self.take(&key, leaving: ""), Self.take(&value, leaving: .null)))
                } else {
                    values.push(Self.take(&value, leaving: .null))
                }
                skipWhitespace()
                guard position < bytes.count else { throw error(.unexpectedEnd, at: position) }
                let byte = bytes[position]
                if byte == UInt8(ascii: ",") {
                    position += 1
                    if isObject {
                        skipWhitespace()
                        key = try parseKey(in: &frames)
                    }
                    continue nextValue
                }
                guard byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    throw unexpectedByte(at: position)
                }
                position += 1
                let frame = frames.popLast()
                if isObject {
                    value = .object(members.popObject(from: frame.start, keysAreDistinct: !frame.mayRepeatKeys))
                } else {
                    value = .array(JSONArray(elements: values.popElements(from: frame.start)))
                }
                key = frame.parentKey
            }
            return value
        }
    }

    /// Returns `variable`'s value and leaves `empty` in its place: a move out of a variable
    /// that is set again before it is read, which a copy would retain and the next
    /// assignment release.
    @inline(__always)
    private static func take<Value>(_ variable: inout Value, leaving empty: Value) -> Value {
        var value = empty
        swap(&value, &variable)
        return value
    }

    /// Parses an object key and the colon after it, noting in the innermost frame whether
    /// the key may repeat one before it.
    private mutating func parseKey(in frames: inout Stack<Frame>) throws(JSONParseError) -> String {
        guard position < bytes.count else { throw error(.unexpectedEnd, at: position) }
        guard bytes[position] == UInt8(ascii: "\"") else { throw unexpectedByte(at: position) }
        let (key, slot) = try parseKeyString()
        frames.updateLast { frame in
            if let slot {
                let bit: UInt64 = 1 << slot
                if frame.keySlots & bit != 0 { frame.mayRepeatKeys = true }
                frame.keySlots |= bit
            } else {
                frame.mayRepeatKeys = true
            }
        }
        skipWhitespace()
        guard position < bytes.count else { throw error(.unexpectedEnd, at: position) }
        guard bytes[position] == UInt8(ascii: ":") else { throw unexpectedByte(at: position) }
        position += 1
        return key
    }

    /// Parses a key starting at its opening quote, reusing the string of an identical recent key.
    ///
    /// Returns the key's slot in the key cache, or `nil` for a key that bypasses the cache (one
    /// with escapes or non-ASCII characters).
    private mutating func parseKeyString() throws(JSONParseError) -> (String, slot: Int?) {
        let start = position + 1
        var index = start
        var hash: UInt32 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { break }
            // Escapes, control characters and non-ASCII keys take the general path.
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { return (try parseString(), nil) }
            hash = hash &* 31 &+ UInt32(byte)
            index += 1
        }
        guard index < bytes.count else { throw error(.unexpectedEnd, at: index) }
        position = index + 1
        let (key, slot) = keyCache.key(for: start..<index, hash: hash, in: bytes)
        return (key, slot)
    }

    // MARK: - Scalars

    /// Skips the four whitespace characters JSON allows: space, tab, line feed and carriage
    /// return.
    @inline(__always)
    private mutating func skipWhitespace() {
        while position < bytes.count {
            let byte = bytes[position]
            guard byte <= UInt8(ascii: " "),
                byte == UInt8(ascii: " ") || byte == 0x0A || byte == 0x0D || byte == 0x09
            else { return }
            position += 1
        }
    }

    /// Consumes `literal` (`true`, `false` or `null`), whose first byte is known to match.
    private mutating func parseLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        let expected = literal.utf8Start
        for index in 1..<count {
            let offset = position + index
            guard offset < bytes.count else { throw error(.unexpectedEnd, at: offset) }
            guard bytes[offset] == expected[index] else { throw unexpectedByte(at: offset) }
        }
        position += count
    }

    /// Parses a number.
    ///
    /// Integers that fit in `Int` become ``JSONValue/int(_:)``; numbers with a fraction or an
    /// exponent, and larger integers, become ``JSONValue/double(_:)``.
    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        var index = position
        let isNegative = bytes[index] == UInt8(ascii: "-")
        if isNegative { index += 1 }

        // The decimal digits as one integer, exact unless `overflowed`.
        var significand: UInt64 = 0
        var overflowed = false
        @inline(__always) func accumulate(_ byte: UInt8) {
            guard !overflowed else { return }
            let (shifted, overflow1) = significand.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(UInt64(byte &- UInt8(ascii: "0")))
            if overflow1 || overflow2 { overflowed = true } else { significand = sum }
        }

        // Integer part: `0` or a non-zero digit followed by digits.
        guard index < bytes.count else { throw error(.unexpectedEnd, at: index) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, Self.isDigit(bytes[index]) { throw error(.invalidNumber, at: index) }
        } else if Self.isDigit(bytes[index]) {
            while index < bytes.count, Self.isDigit(bytes[index]) {
                accumulate(bytes[index])
                index += 1
            }
        } else {
            throw error(.invalidNumber, at: index)
        }

        var isInteger = true
        var fractionDigits = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count else { throw error(.unexpectedEnd, at: index) }
            guard Self.isDigit(bytes[index]) else { throw error(.invalidNumber, at: index) }
            while index < bytes.count, Self.isDigit(bytes[index]) {
                accumulate(bytes[index])
                fractionDigits += 1
                index += 1
            }
        }

        var exponent = 0
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            var exponentIsNegative = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                exponentIsNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            guard index < bytes.count else { throw error(.unexpectedEnd, at: index) }
            guard Self.isDigit(bytes[index]) else { throw error(.invalidNumber, at: index) }
            while index < bytes.count, Self.isDigit(bytes[index]) {
                // Saturate: anything this large over- or underflows a Double anyway.
                if exponent < 1_000_000 { exponent = exponent * 10 + Int(bytes[index] &- UInt8(ascii: "0")) }
                index += 1
            }
            if exponentIsNegative { exponent = -exponent }
        }
        position = index

        if isInteger, !overflowed {
            if !isNegative, significand <= UInt64(Int.max) { return .int(Int(significand)) }
            if isNegative, significand <= UInt64(Int.max) + 1 { return .int(Int(truncatingIfNeeded: 0 &- significand)) }
        }

        // Fast path: a significand of at most 53 bits and a power of ten of at most 22 are
        // both exact doubles, so a single multiplication or division rounds correctly.
        let powerOfTen = exponent - fractionDigits
        if !overflowed, significand <= 1 << 53, (-22...22).contains(powerOfTen) {
            let magnitude = Double(significand)
            let power = Self.powersOfTen[abs(powerOfTen)]
            let result = powerOfTen < 0 ? magnitude / power : magnitude * power
            return .double(isNegative ? -result : result)
        }

        // Slow path: the standard library's correctly rounded conversion of the text.
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let result = Double(text), result.isFinite else { throw error(.invalidNumber, at: start) }
        return .double(result)
    }

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    // MARK: - Errors

    /// The error for a byte that cannot appear at `index`: the character it starts, or
    /// invalid UTF-8.
    func unexpectedByte(at index: Int) -> JSONParseError {
        guard let length = Self.utf8SequenceLength(in: bytes, at: index) else {
            return error(.invalidUTF8, at: index)
        }
        let sequence = UnsafeBufferPointer(rebasing: bytes[index..<index + length])
        let character = String(decoding: sequence, as: UTF8.self).first ?? "\u{FFFD}"
        return error(.unexpectedCharacter(character), at: index)
    }

    /// An error of `kind` at byte `offset`, with its line and column.
    func error(_ kind: JSONParseError.Kind, at offset: Int) -> JSONParseError {
        let offset = min(offset, bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<offset where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        if lineStart == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            lineStart = min(3, offset)
        }
        var column = 1
        for index in lineStart..<offset where bytes[index] & 0xC0 != 0x80 { column += 1 }
        return JSONParseError(kind: kind, offset: offset, line: line, column: column)
    }
}
