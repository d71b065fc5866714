/// A stored record's text checked, and its id attribute found, without building its
/// values: for text in the plain part of JSON that Keel's writer produces for most records.
///
/// An update keeps only the stored record's id attribute, yet must refuse a damaged record
/// (one Keel's parser cannot read as an object) as a read does. Parsing the whole record
/// into values is about 10 k instructions for a note; checking it here is a few hundred.
/// The check answers only for text where it and Keel's parser must agree: printable ASCII
/// (so no UTF-8 to check), strings without escapes (so a key's bytes are its name), spaces
/// as the only whitespace, numbers without an exponent and with fewer than 300 digits (so
/// none is past `Double`'s range), and nesting at most 64 deep. Any other text, valid or
/// not, is ``Scan/outside``, and the caller parses it whole.
enum PlainRecordText {
    /// What ``scan(_:idAttribute:)`` found.
    enum Scan: Equatable {
        /// The text is outside the plain part, or is not a JSON object: only Keel's parser
        /// can tell whether the record is damaged.
        case outside
        /// The text is a JSON object; the byte range of its id attribute's value (the last,
        /// as Keel's parser keeps a repeated key's last value), `nil` when it has none.
        case object(idValue: Range<Int>?)
    }

    /// Where a scan is in the grammar.
    private enum Expecting {
        case value
        case key
        case valueEnd
    }

    /// Checks that `text` is a plain JSON object and finds its top-level `idAttribute`.
    ///
    /// - Parameters:
    ///   - text: The stored text.
    ///   - idAttribute: The id attribute's name as UTF-8.
    /// - Returns: ``Scan/object(idValue:)``, or ``Scan/outside``; an id attribute whose
    ///   value is an object or array is ``Scan/outside`` too.
    /// - Complexity: O(*n*), where *n* is the length of the text.
    static func scan(_ text: UnsafeRawBufferPointer, idAttribute: UnsafeBufferPointer<UInt8>) -> Scan {
        var index = 0
        // One bit a level, 1 for an object, the innermost lowest.
        var containers: UInt64 = 0
        var depth = 0
        var idValue: Range<Int>?
        var valueIsID = false
        var expecting = Expecting.value
        func skipSpaces() {
            while index < text.count, text[index] == UInt8(ascii: " ") { index += 1 }
        }
        skipSpaces()
        guard index < text.count, text[index] == UInt8(ascii: "{") else { return .outside }
        while true {
            skipSpaces()
            switch expecting {
            case .value:
                guard index < text.count else { return .outside }
                let start = index
                let byte = text[index]
                if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    guard !valueIsID, depth < 64 else { return .outside }
                    let isObject = byte == UInt8(ascii: "{")
                    containers = containers << 1 | (isObject ? 1 : 0)
                    depth += 1
                    index += 1
                    skipSpaces()
                    if index < text.count, text[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        index += 1
                        containers >>= 1
                        depth -= 1
                        expecting = .valueEnd
                    } else {
                        expecting = isObject ? .key : .value
                    }
                    continue
                }
                guard let end = scalarEnd(in: text, at: start) else { return .outside }
                index = end
                if valueIsID { idValue = start..<end }
                valueIsID = false
                expecting = .valueEnd
            case .key:
                guard index < text.count, text[index] == UInt8(ascii: "\""),
                    let end = stringEnd(in: text, at: index)
                else { return .outside }
                valueIsID = depth == 1 && isName(idAttribute, in: text, from: index + 1, to: end - 1)
                index = end
                skipSpaces()
                guard index < text.count, text[index] == UInt8(ascii: ":") else { return .outside }
                index += 1
                expecting = .value
            case .valueEnd:
                if depth == 0 { return index == text.count ? .object(idValue: idValue) : .outside }
                guard index < text.count else { return .outside }
                let inObject = containers & 1 == 1
                if text[index] == UInt8(ascii: ",") {
                    index += 1
                    expecting = inObject ? .key : .value
                } else if text[index] == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    index += 1
                    containers >>= 1
                    depth -= 1
                } else {
                    return .outside
                }
            }
        }
    }

    /// The index after the string, number or literal that starts at `start`, or `nil` when
    /// there is none of the plain part.
    private static func scalarEnd(in text: UnsafeRawBufferPointer, at start: Int) -> Int? {
        switch text[start] {
        case UInt8(ascii: "\""): return stringEnd(in: text, at: start)
        case UInt8(ascii: "t"): return literalEnd("true", in: text, at: start)
        case UInt8(ascii: "f"): return literalEnd("false", in: text, at: start)
        case UInt8(ascii: "n"): return literalEnd("null", in: text, at: start)
        default: return numberEnd(in: text, at: start)
        }
    }

    /// The index after the closing quote of the string whose opening quote is at `start`,
    /// or `nil` when it has an escape, a byte outside printable ASCII, or no end.
    private static func stringEnd(in text: UnsafeRawBufferPointer, at start: Int) -> Int? {
        var index = start + 1
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "\"") { return index + 1 }
            guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        return nil
    }

    /// The index after `literal` at `start`, or `nil` when it is not there.
    private static func literalEnd(_ literal: StaticString, in text: UnsafeRawBufferPointer, at start: Int) -> Int? {
        let count = literal.utf8CodeUnitCount
        guard start + count <= text.count else { return nil }
        for offset in 0..<count where text[start + offset] != literal.utf8Start[offset] { return nil }
        return start + count
    }

    /// The index after the number at `start` (`-`, an integer part without a leading zero,
    /// a fraction), or `nil` when there is none, it has an exponent or 300 digits or more.
    private static func numberEnd(in text: UnsafeRawBufferPointer, at start: Int) -> Int? {
        var index = start
        if text[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        while index < text.count, isDigit(text[index]) { index += 1 }
        let integerDigits = index - integerStart
        guard integerDigits > 0, integerDigits == 1 || text[integerStart] != UInt8(ascii: "0") else { return nil }
        if index < text.count, text[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < text.count, isDigit(text[index]) { index += 1 }
            guard index > fractionStart else { return nil }
        }
        guard index - start < 300 else { return nil }
        if index < text.count, text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") { return nil }
        return index
    }

    /// Whether a byte is an ASCII digit.
    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// Whether the bytes from `start` up to `end` are `name`.
    private static func isName(
        _ name: UnsafeBufferPointer<UInt8>,
        in text: UnsafeRawBufferPointer,
        from start: Int,
        to end: Int
    ) -> Bool {
        guard end - start == name.count else { return false }
        for offset in name.indices where text[start + offset] != name[offset] { return false }
        return true
    }
}
