/// An error thrown when JSON text cannot be parsed, with the position of the problem.
///
/// The position is given both as a byte ``offset`` into the input and as a 1-based
/// ``line`` and ``column``, so the ``description`` can point a person at the problem:
///
/// ```swift
/// do {
///     _ = try JSONValue(parsing: "[1, 2,]")
/// } catch {
///     print(error)  // Unexpected character ']' at line 1, column 7
/// }
/// ```
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    ///
    /// ```swift
    /// if case .unexpectedCharacter(let character) = error.kind { print(character) }
    /// ```
    public enum Kind: Sendable, Hashable {
        /// The input ended in the middle of a value (or held no value at all).
        case unexpectedEnd
        /// A character that cannot appear at this position, such as a trailing comma's `]`,
        /// a comment's `/` or a single quote.
        case unexpectedCharacter(Character)
        /// A malformed number: a leading zero, a missing digit after `-`, `.` or `e`, or a
        /// magnitude too large for a `Double`.
        case invalidNumber
        /// A backslash followed by something other than `" \ / b f n r t u`.
        case invalidEscape
        /// A `\u` escape without four hexadecimal digits.
        case invalidUnicode
        /// A raw control character (U+0000 through U+001F) inside a string; these must be
        /// escaped.
        case controlCharacterInString
        /// More content after the value, such as a second value.
        case trailingContent
        /// Arrays and objects nested deeper than ``JSONValue/maximumParsingDepth``.
        case tooDeeplyNested
        /// Bytes that are not well-formed UTF-8.
        case invalidUTF8
    }

    /// What went wrong.
    ///
    /// ```swift
    /// do { _ = try JSONValue(parsing: "1 2") } catch { print(error.kind) }  // trailingContent
    /// ```
    public let kind: Kind

    /// The 0-based byte offset in the input at which the problem was found; a UTF-8 byte
    /// order mark counts.
    ///
    /// ```swift
    /// do { _ = try JSONValue(parsing: "[1,]") } catch { print(error.offset) }  // 3
    /// ```
    public let offset: Int

    /// The 1-based line of ``offset``; lines are separated by line feeds (U+000A).
    ///
    /// ```swift
    /// do { _ = try JSONValue(parsing: "[\n1,\nx]") } catch { print(error.line) }  // 3
    /// ```
    public let line: Int

    /// The 1-based column of ``offset`` within its ``line``, counted in Unicode scalars
    /// (a byte order mark does not count).
    ///
    /// ```swift
    /// do { _ = try JSONValue(parsing: "[\"é\", x]") } catch { print(error.column) }  // 7
    /// ```
    public let column: Int

    /// Creates an error at an explicit position.
    ///
    /// The parser computes the position from the input; this initializer exists for tests
    /// and for code that reports errors of its own in the same shape.
    ///
    /// ```swift
    /// let error = JSONParseError(kind: .unexpectedEnd, offset: 4, line: 1, column: 5)
    /// ```
    ///
    /// - Parameters:
    ///   - kind: What went wrong.
    ///   - offset: The 0-based byte offset of the problem.
    ///   - line: The 1-based line of the problem.
    ///   - column: The 1-based column of the problem.
    public init(kind: Kind, offset: Int, line: Int, column: Int) {
        self.kind = kind
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// A sentence naming the problem and its line and column.
    ///
    /// ```swift
    /// print(error)  // Unexpected character 'x' at line 3, column 7
    /// ```
    public var description: String {
        "\(kind.summary) at line \(line), column \(column)"
    }
}

extension JSONParseError.Kind {
    /// The problem as the start of a sentence.
    fileprivate var summary: String {
        switch self {
        case .unexpectedEnd:
            return "Unexpected end of input"
        case .unexpectedCharacter(let character):
            return "Unexpected character \(Self.quoted(character))"
        case .invalidNumber:
            return "Invalid number"
        case .invalidEscape:
            return "Invalid escape sequence"
        case .invalidUnicode:
            return "Invalid \\u escape"
        case .controlCharacterInString:
            return "Unescaped control character in string"
        case .trailingContent:
            return "Unexpected content after the JSON value"
        case .tooDeeplyNested:
            return "Arrays and objects nested deeper than \(JSONValue.maximumParsingDepth) levels"
        case .invalidUTF8:
            return "Invalid UTF-8"
        }
    }

    /// `'x'` for a visible character, `U+0007` for an invisible one.
    private static func quoted(_ character: Character) -> String {
        let scalars = character.unicodeScalars
        if scalars.count == 1, let scalar = scalars.first,
            scalar.properties.generalCategory == .control || scalar.properties.isWhitespace
        {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        return "'\(character)'"
    }
}
