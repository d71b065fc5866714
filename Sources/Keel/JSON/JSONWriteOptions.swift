/// Options for writing JSON text with ``JSONValue/jsonString(options:)`` and
/// ``JSONValue/jsonData(options:)``.
///
/// The default, `[]`, writes compact text with object keys in their stored order and escapes
/// only what JSON requires: `"`, `\` and control characters.
///
/// ```swift
/// let value: JSONValue = ["b": 1, "a": "x/y"]
/// try value.jsonString(options: [.prettyPrinted, .sortedKeys])
/// // {
/// //   "a": "x/y",
/// //   "b": 1
/// // }
/// ```
public struct JSONWriteOptions: OptionSet, Sendable, Hashable {
    /// The raw bits of the options.
    ///
    /// ```swift
    /// JSONWriteOptions.prettyPrinted.rawValue  // 1
    /// ```
    public let rawValue: UInt

    /// Creates options from raw bits.
    ///
    /// ```swift
    /// let options = JSONWriteOptions(rawValue: 3)  // [.prettyPrinted, .sortedKeys]
    /// ```
    ///
    /// - Parameter rawValue: The raw bits.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Writes one member or element per line, indented by two spaces per level, with a space after
    /// each colon: `"key": value`.
    ///
    /// Empty arrays and objects stay `[]` and `{}`.
    ///
    /// ```swift
    /// try JSONValue(["a": [1]]).jsonString(options: .prettyPrinted)
    /// // {
    /// //   "a": [
    /// //     1
    /// //   ]
    /// // }
    /// ```
    public static let prettyPrinted = JSONWriteOptions(rawValue: 1 << 0)

    /// Writes object keys in ascending order of their Unicode code points instead of their
    /// stored order, so equal objects always produce the same text.
    ///
    /// ```swift
    /// try JSONValue(["b": 1, "a": 2]).jsonString(options: .sortedKeys)  // {"a":2,"b":1}
    /// ```
    public static let sortedKeys = JSONWriteOptions(rawValue: 1 << 1)

    /// Escapes `/` as `\/`, as `JSONSerialization` does by default, which lets the text sit inside
    /// an HTML `<script>` element.
    ///
    /// Without it, `/` is written as is.
    ///
    /// ```swift
    /// try JSONValue("a/b").jsonString(options: .escapingSlashes)  // "a\/b"
    /// ```
    public static let escapingSlashes = JSONWriteOptions(rawValue: 1 << 2)
}
