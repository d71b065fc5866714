extension JSONParser {
    // MARK: - Strings

    /// Parses a string starting at its opening quote.
    mutating func parseString() throws(JSONParseError) -> String {
        let start = position + 1
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                position = index + 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                return try parseEscapedString(start: start, firstEscape: index)
            }
            if byte < 0x20 { throw error(.controlCharacterInString, at: index) }
            if byte < 0x80 {
                index += 1
            } else {
                index = try endOfUTF8Sequence(at: index)
            }
        }
        throw error(.unexpectedEnd, at: index)
    }

    /// Parses the rest of a string that contains escape sequences, decoding it into
    /// `scratch`.
    private mutating func parseEscapedString(start: Int, firstEscape: Int) throws(JSONParseError) -> String {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<firstEscape]))
        var index = firstEscape
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                position = index + 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                index = try decodeEscape(at: index)
            } else if byte < 0x20 {
                throw error(.controlCharacterInString, at: index)
            } else if byte < 0x80 {
                scratch.append(byte)
                index += 1
            } else {
                let end = try endOfUTF8Sequence(at: index)
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                index = end
            }
        }
        throw error(.unexpectedEnd, at: index)
    }

    /// Decodes the escape sequence at `index` (a backslash) into `scratch` and returns the
    /// offset after it.
    ///
    /// A `\u` escape of an unpaired UTF-16 surrogate decodes to U+FFFD, the replacement
    /// character, because a Swift string cannot hold a lone surrogate.
    private mutating func decodeEscape(at index: Int) throws(JSONParseError) -> Int {
        let next = index + 1
        guard next < bytes.count else { throw error(.unexpectedEnd, at: next) }
        let decoded: UInt8
        switch bytes[next] {
        case UInt8(ascii: "\""): decoded = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): decoded = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): decoded = UInt8(ascii: "/")
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"):
            let unit = try hexUnit(at: next + 1)
            var end = next + 5
            var scalar = Unicode.Scalar(unit)
            if UTF16.isLeadSurrogate(unit),
                end + 6 <= bytes.count,
                bytes[end] == UInt8(ascii: "\\"), bytes[end + 1] == UInt8(ascii: "u")
            {
                let low = try hexUnit(at: end + 2)
                if UTF16.isTrailSurrogate(low) {
                    let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                    scalar = Unicode.Scalar(value)
                    end += 6
                }
            }
            appendUTF8(scalar?.value ?? 0xFFFD)
            return end
        default:
            throw error(.invalidEscape, at: next)
        }
        scratch.append(decoded)
        return next + 1
    }

    /// Appends the UTF-8 encoding of the Unicode scalar `value` to `scratch`.
    private mutating func appendUTF8(_ value: UInt32) {
        switch value {
        case ..<0x80:
            scratch.append(UInt8(truncatingIfNeeded: value))
        case ..<0x800:
            scratch.append(UInt8(truncatingIfNeeded: 0xC0 | value >> 6))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | value & 0x3F))
        case ..<0x10000:
            scratch.append(UInt8(truncatingIfNeeded: 0xE0 | value >> 12))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | value >> 6 & 0x3F))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | value & 0x3F))
        default:
            scratch.append(UInt8(truncatingIfNeeded: 0xF0 | value >> 18))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | value >> 12 & 0x3F))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | value >> 6 & 0x3F))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | value & 0x3F))
        }
    }

    /// Reads the four hexadecimal digits of a `\u` escape starting at `index`.
    private func hexUnit(at index: Int) throws(JSONParseError) -> UInt16 {
        var unit: UInt16 = 0
        for offset in index..<index + 4 {
            guard offset < bytes.count else { throw error(.unexpectedEnd, at: offset) }
            let byte = bytes[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error(.invalidUnicode, at: offset)
            }
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }

    // MARK: - UTF-8

    /// Validates the multi-byte UTF-8 sequence starting at `index` and returns the offset
    /// after it.
    private func endOfUTF8Sequence(at index: Int) throws(JSONParseError) -> Int {
        guard let length = Self.utf8SequenceLength(in: bytes, at: index) else {
            throw error(.invalidUTF8, at: index)
        }
        return index + length
    }

    /// The length of the well-formed UTF-8 sequence at `index`, or `nil` when the bytes
    /// there are not one (per RFC 3629: no overlong forms, surrogates or values past
    /// U+10FFFF).
    static func utf8SequenceLength(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: return nil
        }
        guard index + length <= bytes.count, secondRange.contains(bytes[index + 1]) else { return nil }
        for offset in index + 2..<index + length where bytes[offset] & 0xC0 != 0x80 { return nil }
        return length
    }
}
