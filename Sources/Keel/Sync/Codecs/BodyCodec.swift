public import Foundation

/// Reads and writes request and response bodies in one family of media types, as JSON values:
/// RestKit's `RKMIMETypeSerialization`.
///
/// ``RESTSync`` decodes an answer with the codec of its ``RESTSync/codecs`` that handles the
/// answer's `Content-Type`, and encodes a body with the codec for the media type of
/// ``BodyEncoding/mediaType(_:)`` or ``RequestBody/encoded(_:mediaType:)``. Keel ships
/// ``JSONBodyCodec``, ``FormURLEncodedBodyCodec`` and ``PlainTextBodyCodec``; write one for a
/// server that speaks XML, MessagePack or a format of its own.
///
/// ```swift
/// struct PropertyListCodec: BodyCodec {
///     var mediaTypes: [String] { ["application/x-plist"] }
///
///     func encode(_ value: JSONValue) throws(BodyCodecError) -> Data {
///         do {
///             let object = try JSONSerialization.jsonObject(with: value.jsonData())
///             return try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0)
///         } catch {
///             throw BodyCodecError("\(error)")
///         }
///     }
///
///     func decode(_ data: Data, contentType: String) throws(BodyCodecError) -> JSONValue {
///         do {
///             let object = try PropertyListSerialization.propertyList(from: data, format: nil)
///             return try JSONValue(parsing: JSONSerialization.data(withJSONObject: object))
///         } catch {
///             throw BodyCodecError("\(error)")
///         }
///     }
/// }
///
/// var api = RESTSync(baseURL: URL(string: "https://api.example.com")!)
/// api.codecs.register(PropertyListCodec())
/// ```
///
/// ### Implementation requirements
///
/// - ``mediaTypes`` lists lowercased `type/subtype` names without parameters; the first is
///   the `Content-Type` of the bodies the codec writes and the type ``RESTSync`` lists in
///   `Accept`. An entry that starts with `+` (`+json`) stands for every media type with that
///   structured-syntax suffix (`application/problem+json`).
/// - ``encode(_:)`` and ``decode(_:contentType:)`` throw ``BodyCodecError`` for a value or a
///   body they cannot handle, with a reason that names what is wrong, and never trap.
/// - A codec is a value shared across tasks: keep no mutable state, or keep it behind a
///   `Mutex`.
public protocol BodyCodec: Sendable {
    /// The media types the codec reads and writes; the first is the one it writes.
    ///
    /// ```swift
    /// JSONBodyCodec().mediaTypes  // ["application/json", "text/json", "+json"]
    /// ```
    var mediaTypes: [String] { get }

    /// The body that carries a value.
    ///
    /// ```swift
    /// let data = try FormURLEncodedBodyCodec().encode(["title": "Milk"])  // title=Milk
    /// ```
    ///
    /// - Parameter value: The value, usually a record's object.
    /// - Returns: The body's bytes.
    /// - Throws: ``BodyCodecError`` when the value cannot be written in this format.
    func encode(_ value: JSONValue) throws(BodyCodecError) -> Data

    /// The value a body carries.
    ///
    /// ```swift
    /// try PlainTextBodyCodec().decode(Data("kD7x".utf8), contentType: "text/plain")  // "kD7x"
    /// ```
    ///
    /// - Parameters:
    ///   - data: The body's bytes.
    ///   - contentType: The answer's `Content-Type`, with its parameters (`charset=…`).
    /// - Returns: The value.
    /// - Throws: ``BodyCodecError`` when the body is not valid in this format.
    func decode(_ data: Data, contentType: String) throws(BodyCodecError) -> JSONValue
}
