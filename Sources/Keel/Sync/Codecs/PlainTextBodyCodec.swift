public import Foundation

/// Plain-text bodies, `text/plain`: an answer becomes its text (a Drupal CSRF token), and a
/// string value is sent as it is.
///
/// ```swift
/// try PlainTextBodyCodec().decode(Data("kD7x".utf8), contentType: "text/plain")  // "kD7x"
/// ```
public struct PlainTextBodyCodec: BodyCodec {
    /// Creates the codec.
    ///
    /// ```swift
    /// let codecs = BodyCodecs([JSONBodyCodec(), PlainTextBodyCodec()])
    /// ```
    public init() {}

    /// `text/plain`.
    ///
    /// ```swift
    /// PlainTextBodyCodec().mediaTypes  // ["text/plain"]
    /// ```
    public var mediaTypes: [String] { ["text/plain"] }

    /// The UTF-8 text of a string, or of a number or Boolean as JSON writes it.
    ///
    /// ```swift
    /// try PlainTextBodyCodec().encode("hello")  // hello
    /// ```
    ///
    /// - Parameter value: A scalar.
    /// - Returns: The text's bytes.
    /// - Throws: ``BodyCodecError`` for an object, an array or `null`, which plain text
    ///   cannot carry.
    public func encode(_ value: JSONValue) throws(BodyCodecError) -> Data {
        switch value {
        case .object, .array, .null:
            throw BodyCodecError("plain text carries a string, a number or a Boolean, not \(value.debugDescription.prefix(40))")
        default:
            return Data(FormNotation.text(of: value).utf8)
        }
    }

    /// The body's text, invalid UTF-8 replaced by U+FFFD.
    ///
    /// ```swift
    /// try PlainTextBodyCodec().decode(Data("ok".utf8), contentType: "text/plain; charset=utf-8")  // "ok"
    /// ```
    ///
    /// - Parameters:
    ///   - data: The body.
    ///   - contentType: The answer's `Content-Type` (not used).
    /// - Returns: A string.
    public func decode(_ data: Data, contentType: String) throws(BodyCodecError) -> JSONValue {
        .string(String(decoding: data, as: UTF8.self))
    }
}
