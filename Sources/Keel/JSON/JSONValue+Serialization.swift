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
/// shortest form that reads back as the same double (`0.1`, `1e+300`); negative zero is
/// written as `-0.0`, which reads back as negative zero (`-0` would read back as the integer
/// `0`). JSON has no `NaN` or infinity: those are written as `null`, as JavaScript's
/// `JSON.stringify` does.
///
/// Everything written parses back: arrays and objects nested deeper than
/// ``maximumParsingDepth`` levels throw ``JSONWriteError/Kind/tooDeeplyNested``, as parsing
/// them would. ``description`` has no such limit.
extension JSONValue {
    /// The value as UTF-8 encoded JSON text.
    ///
    /// ```swift
    /// let body = try JSONValue(["title": "Dune", "done": false]).jsonData()
    /// request.httpBody = body  // {"title":"Dune","done":false}
    /// ```
    ///
    /// - Parameter options: How to format the text; compact by default.
    /// - Returns: The JSON text as UTF-8 bytes.
    /// - Throws: ``JSONWriteError`` when arrays and objects nest deeper than
    ///   ``maximumParsingDepth`` levels.
    /// - Complexity: O(*n*) in the size of the value; O(*n* log *n*) with
    ///   ``JSONWriteOptions/sortedKeys``.
    public func jsonData(options: JSONWriteOptions = []) throws(JSONWriteError) -> Data {
        Data(try jsonBytes(options: options))
    }

    /// The value as JSON text.
    ///
    /// ```swift
    /// try JSONValue(["tags": ["a", "b"]]).jsonString()  // {"tags":["a","b"]}
    /// ```
    ///
    /// - Parameter options: How to format the text; compact by default.
    /// - Returns: The JSON text.
    /// - Throws: ``JSONWriteError`` when arrays and objects nest deeper than
    ///   ``maximumParsingDepth`` levels.
    /// - Complexity: O(*n*) in the size of the value; O(*n* log *n*) with
    ///   ``JSONWriteOptions/sortedKeys``.
    public func jsonString(options: JSONWriteOptions = []) throws(JSONWriteError) -> String {
        String(decoding: try jsonBytes(options: options), as: UTF8.self)
    }

    /// The value as UTF-8 encoded JSON text, as the bytes the writer made: for a caller that
    /// binds them (`KeelSQLite`), without the copy into `Data`.
    package func jsonBytes(options: JSONWriteOptions = []) throws(JSONWriteError) -> [UInt8] {
        var writer = JSONWriter(options: options)
        guard writer.write(self, maximumDepth: Self.maximumParsingDepth) else {
            throw JSONWriteError(kind: .tooDeeplyNested)
        }
        return writer.finish()
    }

    /// The value as compact JSON text, however deeply it nests.
    var unlimitedJSONString: String {
        var writer = JSONWriter(options: [])
        // Without a limit, every value is written whole.
        _ = writer.write(self, maximumDepth: .max)
        return String(decoding: writer.finish(), as: UTF8.self)
    }
}

extension JSONObject {
    /// The object as UTF-8 encoded JSON text, keys in stored order.
    ///
    /// ```swift
    /// let attributes: JSONObject = ["title": "Dune", "year": 1965]
    /// try attributes.jsonData()  // {"title":"Dune","year":1965}
    /// ```
    ///
    /// - Parameter options: How to format the text; compact by default.
    /// - Returns: The JSON text as UTF-8 bytes.
    /// - Throws: ``JSONWriteError`` when arrays and objects nest deeper than
    ///   ``JSONValue/maximumParsingDepth`` levels (the object itself is the first).
    /// - Complexity: O(*n*) in the size of the object; O(*n* log *n*) with
    ///   ``JSONWriteOptions/sortedKeys``.
    public func jsonData(options: JSONWriteOptions = []) throws(JSONWriteError) -> Data {
        try JSONValue.object(self).jsonData(options: options)
    }

    /// The object as JSON text, keys in stored order.
    ///
    /// ```swift
    /// let attributes: JSONObject = ["b": 1, "a": 2]
    /// try attributes.jsonString(options: .sortedKeys)  // {"a":2,"b":1}
    /// ```
    ///
    /// - Parameter options: How to format the text; compact by default.
    /// - Returns: The JSON text.
    /// - Throws: ``JSONWriteError`` when arrays and objects nest deeper than
    ///   ``JSONValue/maximumParsingDepth`` levels (the object itself is the first).
    /// - Complexity: O(*n*) in the size of the object; O(*n* log *n*) with
    ///   ``JSONWriteOptions/sortedKeys``.
    public func jsonString(options: JSONWriteOptions = []) throws(JSONWriteError) -> String {
        try JSONValue.object(self).jsonString(options: options)
    }
}
