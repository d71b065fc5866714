public import Foundation

/// Writing values as JSON text.
///
/// Objects are written with their keys in stored order (or sorted, with
/// ``JSONWriteOptions/sortedKeys``). Only `"`, `\` and control characters are escaped,
/// control characters as `\b`, `\f`, `\n`, `\r`, `\t` or `\u00XX`; every other character,
/// including `/` and non-ASCII text, is written as UTF-8.
///
/// Numbers: an ``int(_:)`` is written exactly. A ``double(_:)`` with an integral value of at
/// most 2^53 in magnitude is written without a fraction (`1`, not `1.0`, as JavaScript
/// does), which reads back as an equal ``int(_:)``; other doubles are written in their
/// shortest form that reads back as the same double (`0.1`, `1e+300`). JSON has no `NaN` or
/// infinity: those are written as `null`, as JavaScript's `JSON.stringify` does.
extension JSONValue {
    /// The value as UTF-8 encoded JSON text.
    ///
    /// ```swift
    /// let body = JSONValue(["title": "Dune", "done": false]).jsonData()
    /// request.httpBody = body  // {"title":"Dune","done":false}
    /// ```
    ///
    /// - Parameter options: How to format the text; compact by default.
    /// - Returns: The JSON text as UTF-8 bytes.
    /// - Complexity: O(*n*) in the size of the value; O(*n* log *n*) with
    ///   ``JSONWriteOptions/sortedKeys``.
    public func jsonData(options: JSONWriteOptions = []) -> Data {
        Data(jsonBytes(options: options))
    }

    /// The value as JSON text.
    ///
    /// ```swift
    /// JSONValue(["tags": ["a", "b"]]).jsonString()  // {"tags":["a","b"]}
    /// ```
    ///
    /// - Parameter options: How to format the text; compact by default.
    /// - Returns: The JSON text.
    /// - Complexity: O(*n*) in the size of the value; O(*n* log *n*) with
    ///   ``JSONWriteOptions/sortedKeys``.
    public func jsonString(options: JSONWriteOptions = []) -> String {
        String(decoding: jsonBytes(options: options), as: UTF8.self)
    }

    private func jsonBytes(options: JSONWriteOptions) -> [UInt8] {
        var writer = JSONWriter(options: options)
        writer.write(self)
        return writer.output
    }
}

extension JSONObject {
    /// The object as UTF-8 encoded JSON text, keys in stored order.
    ///
    /// ```swift
    /// let attributes: JSONObject = ["title": "Dune", "year": 1965]
    /// attributes.jsonData()  // {"title":"Dune","year":1965}
    /// ```
    ///
    /// - Parameter options: How to format the text; compact by default.
    /// - Returns: The JSON text as UTF-8 bytes.
    /// - Complexity: O(*n*) in the size of the object; O(*n* log *n*) with
    ///   ``JSONWriteOptions/sortedKeys``.
    public func jsonData(options: JSONWriteOptions = []) -> Data {
        Data(jsonBytes(options: options))
    }

    /// The object as JSON text, keys in stored order.
    ///
    /// ```swift
    /// let attributes: JSONObject = ["b": 1, "a": 2]
    /// attributes.jsonString(options: .sortedKeys)  // {"a":2,"b":1}
    /// ```
    ///
    /// - Parameter options: How to format the text; compact by default.
    /// - Returns: The JSON text.
    /// - Complexity: O(*n*) in the size of the object; O(*n* log *n*) with
    ///   ``JSONWriteOptions/sortedKeys``.
    public func jsonString(options: JSONWriteOptions = []) -> String {
        String(decoding: jsonBytes(options: options), as: UTF8.self)
    }

    private func jsonBytes(options: JSONWriteOptions) -> [UInt8] {
        var writer = JSONWriter(options: options)
        writer.write(self, depth: 0)
        return writer.output
    }
}
