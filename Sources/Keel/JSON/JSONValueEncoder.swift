/// Encodes `Encodable` values straight to ``JSONValue``, without going through JSON text.
///
/// It works like Foundation's `JSONEncoder`, but produces a value a model can hold. Object
/// keys keep the order in which the value encodes them (for synthesized conformances, the
/// order the properties are declared in).
///
/// ```swift
/// struct Note: Encodable {
///     var title: String
///     var createdAt: Date
/// }
///
/// var encoder = JSONValueEncoder()
/// encoder.keyEncodingStrategy = .convertToSnakeCase
/// let value = try encoder.encode(Note(title: "Hi", createdAt: .now))
/// // {"title": "Hi", "created_at": "2024-05-01T12:30:00Z"}
/// ```
///
/// Besides the strategies, some types are encoded specially, as `JSONEncoder` does:
/// `Data` as a Base64 string, `URL` as its absolute string, `Decimal` as a number, and
/// ``JSONValue`` and ``JSONObject`` as themselves (their keys are not converted). A
/// `[String: Value]` dictionary is encoded with its keys sorted, so the result does not
/// depend on hashing, and its keys are not converted either.
///
/// Doubles and floats are stored as ``JSONValue/double(_:)``, including `NaN` and the
/// infinities (which JSON text writes as `null`). Unsigned integers larger than `Int.max`
/// cannot be held exactly and throw `EncodingError.invalidValue`.
public struct JSONValueEncoder: Sendable {
    /// How the keys of encoded values become object keys.
    ///
    /// ```swift
    /// encoder.keyEncodingStrategy = .convertToSnakeCase
    /// ```
    public enum KeyEncodingStrategy: Sendable {
        /// Use each key's `stringValue` as is. The default.
        case useDefaultKeys

        /// Convert `camelCase` keys to `snake_case`, as `JSONEncoder` does: `myURLProperty`
        /// becomes `my_url_property`, and leading and trailing underscores are kept.
        case convertToSnakeCase

        /// Compute each key from the full coding path; the last element is the key to
        /// convert.
        ///
        /// ```swift
        /// // AnyKey: your CodingKey type with a non-failable init(stringValue:)
        /// encoder.keyEncodingStrategy = .custom { path in
        ///     AnyKey(stringValue: path[path.count - 1].stringValue.uppercased())
        /// }
        /// ```
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    /// How `Date` values are encoded.
    ///
    /// ```swift
    /// encoder.dateEncodingStrategy = .millisecondsSince1970
    /// ```
    public enum DateEncodingStrategy: Sendable {
        /// An ISO 8601 (RFC 3339) string in UTC, such as `2024-05-01T12:30:00Z`, with
        /// milliseconds (`.250`) when the date is not on a whole second, as JavaScript's
        /// `toISOString()` writes. The default.
        case iso8601

        /// A number of seconds since 1 January 1970 UTC.
        case secondsSince1970

        /// A number of milliseconds since 1 January 1970 UTC, as JavaScript's `getTime()`
        /// returns.
        case millisecondsSince1970

        /// Whatever `Date`'s own `Encodable` conformance writes (seconds since 1 January
        /// 2001).
        case deferredToDate
    }

    /// How the keys of encoded values become object keys; ``KeyEncodingStrategy/useDefaultKeys``
    /// by default.
    ///
    /// ```swift
    /// encoder.keyEncodingStrategy = .convertToSnakeCase
    /// ```
    public var keyEncodingStrategy: KeyEncodingStrategy = .useDefaultKeys

    /// How `Date` values are encoded; ``DateEncodingStrategy/iso8601`` by default.
    ///
    /// ```swift
    /// encoder.dateEncodingStrategy = .secondsSince1970
    /// ```
    public var dateEncodingStrategy: DateEncodingStrategy = .iso8601

    /// Context for the values being encoded, available to them as `encoder.userInfo`.
    ///
    /// ```swift
    /// encoder.userInfo[.apiVersion] = 2
    /// ```
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates an encoder with the given strategies.
    ///
    /// ```swift
    /// let encoder = JSONValueEncoder(keyEncodingStrategy: .convertToSnakeCase)
    /// ```
    ///
    /// - Parameters:
    ///   - keyEncodingStrategy: How keys become object keys.
    ///   - dateEncodingStrategy: How dates are encoded.
    public init(
        keyEncodingStrategy: KeyEncodingStrategy = .useDefaultKeys,
        dateEncodingStrategy: DateEncodingStrategy = .iso8601
    ) {
        self.keyEncodingStrategy = keyEncodingStrategy
        self.dateEncodingStrategy = dateEncodingStrategy
    }

    /// Encodes `value` as a JSON value.
    ///
    /// ```swift
    /// let attributes = try JSONValueEncoder().encode(note).objectValue
    /// ```
    ///
    /// - Parameter value: The value to encode.
    /// - Returns: The encoded value.
    /// - Throws: `EncodingError.invalidValue` when the value encodes nothing or holds an
    ///   unsigned integer larger than `Int.max`, or any error the value's `encode(to:)`
    ///   throws.
    /// - Complexity: O(*n*) in the size of the encoded value.
    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let encoder = JSONValueEncoding(configuration: self, codingPath: [])
        guard let encoded = try encoder.boxIfEncoded(value, at: []) else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: [],
                    debugDescription: "Top-level \(T.self) did not encode any values."
                )
            )
        }
        return encoded
    }
}
