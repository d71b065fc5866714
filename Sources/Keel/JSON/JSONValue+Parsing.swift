public import Foundation

/// Parsing JSON text into values.
///
/// The parser follows RFC 8259 strictly: no comments, trailing commas, single quotes,
/// `NaN` or `Infinity`, no leading zeros, and nothing but whitespace after the value.
/// Whitespace is space, tab, line feed and carriage return; a leading UTF-8 byte order mark
/// is skipped. Any value may be the top-level value, not just an array or object.
///
/// - Numbers: an integer that fits in `Int` becomes ``int(_:)``, so `-0` becomes `.int(0)`.
///   A number with a fraction or an exponent, or an integer too large for `Int`, becomes
///   ``double(_:)``, correctly rounded. A magnitude too large for a `Double` (such as
///   `1e400`) is an ``JSONParseError/Kind/invalidNumber`` error, so every parsed number is
///   finite.
/// - Strings must be well-formed UTF-8 and may not contain raw control characters. A `\u`
///   escape of an unpaired UTF-16 surrogate (such as `"\uD800"`) becomes U+FFFD, the
///   replacement character, as a Swift string cannot hold a lone surrogate.
/// - Objects keep their keys in the order of the text. When a key repeats, the last value
///   wins and stays at the key's first position.
/// - Arrays and objects may nest ``maximumParsingDepth`` levels deep; deeper input throws
///   ``JSONParseError/Kind/tooDeeplyNested`` rather than exhausting the stack.
extension JSONValue {
    /// How deeply arrays and objects may nest in parsed text: 512 levels.
    ///
    /// ```swift
    /// let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
    /// try JSONValue(parsing: deep)  // throws .tooDeeplyNested
    /// ```
    public static let maximumParsingDepth = 512

    /// Parses UTF-8 encoded JSON data.
    ///
    /// ```swift
    /// let (data, _) = try await URLSession.shared.data(from: url)
    /// let notes = try JSONValue(parsing: data)
    /// ```
    ///
    /// - Parameter data: JSON text in UTF-8, optionally starting with a byte order mark.
    /// - Throws: ``JSONParseError`` when the data is not a single valid JSON value.
    /// - Complexity: O(*n*) in the length of the data.
    public init(parsing data: Data) throws(JSONParseError) {
        let result = data.withUnsafeBytes { bytes in
            Result { () throws(JSONParseError) -> JSONValue in try JSONParser.parse(bytes) }
        }
        self = try result.get()
    }

    /// Parses JSON text.
    ///
    /// ```swift
    /// let value = try JSONValue(parsing: #"{"title": "Dune", "tags": ["sf"]}"#)
    /// value["title"]  // "Dune"
    /// ```
    ///
    /// - Parameter text: The JSON text.
    /// - Throws: ``JSONParseError`` when the text is not a single valid JSON value.
    /// - Complexity: O(*n*) in the length of the text.
    public init(parsing text: String) throws(JSONParseError) {
        var text = text
        let result = text.withUTF8 { bytes in
            Result { () throws(JSONParseError) -> JSONValue in try JSONParser.parse(UnsafeRawBufferPointer(bytes)) }
        }
        self = try result.get()
    }

    /// Parses UTF-8 encoded JSON from raw memory, without copying it first.
    ///
    /// ```swift
    /// let value = try bytes.withUnsafeBytes { try JSONValue.parse($0) }
    /// ```
    ///
    /// - Parameter bytes: JSON text in UTF-8, optionally starting with a byte order mark.
    /// - Returns: The parsed value.
    /// - Throws: ``JSONParseError`` when the bytes are not a single valid JSON value.
    /// - Complexity: O(*n*) in the number of bytes.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONParseError) -> JSONValue {
        try JSONParser.parse(bytes)
    }
}
