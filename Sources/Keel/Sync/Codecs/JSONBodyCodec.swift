public import Foundation

/// JSON bodies, read and written by Keel's own parser and writer: `application/json`,
/// `text/json` and every `+json` type (`application/problem+json`, `application/vnd.api+json`).
///
/// ```swift
/// let value = try JSONBodyCodec().decode(Data(#"{"id": 1}"#.utf8), contentType: "application/json")
/// ```
public struct JSONBodyCodec: BodyCodec {
    /// Creates the codec.
    ///
    /// ```swift
    /// let codecs = BodyCodecs([JSONBodyCodec()])
    /// ```
    public init() {}

    /// `application/json`, `text/json` and `+json`.
    ///
    /// ```swift
    /// JSONBodyCodec().mediaTypes.first  // "application/json"
    /// ```
    public var mediaTypes: [String] { ["application/json", "text/json", "+json"] }

    /// The JSON text of a value.
    ///
    /// ```swift
    /// try JSONBodyCodec().encode(["id": 1])  // {"id":1}
    /// ```
    ///
    /// - Parameter value: The value.
    /// - Returns: UTF-8 JSON.
    /// - Throws: ``BodyCodecError`` when the value is nested too deeply to write.
    public func encode(_ value: JSONValue) throws(BodyCodecError) -> Data {
        do {
            return try value.jsonData()
        } catch {
            throw BodyCodecError(error.description)
        }
    }

    /// The value of a JSON body.
    ///
    /// ```swift
    /// try JSONBodyCodec().decode(Data("[1, 2]".utf8), contentType: "application/json")  // [1, 2]
    /// ```
    ///
    /// - Parameters:
    ///   - data: UTF-8 JSON.
    ///   - contentType: The answer's `Content-Type` (not used).
    /// - Returns: The parsed value.
    /// - Throws: ``BodyCodecError`` with the parser's description of the first error.
    public func decode(_ data: Data, contentType: String) throws(BodyCodecError) -> JSONValue {
        do {
            return try JSONValue(parsing: data)
        } catch {
            throw BodyCodecError(error.description)
        }
    }
}
