/// Decodes `Decodable` values straight from a ``JSONValue``, without going through JSON text.
///
/// It works like Foundation's `JSONDecoder` and throws the same `DecodingError`s, with the
/// coding path of the offending value:
///
/// ```swift
/// struct Note: Decodable {
///     var title: String
///     var createdAt: Date
/// }
///
/// var decoder = JSONValueDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// let note = try decoder.decode(Note.self, from: ["title": "Hi", "created_at": "2024-05-01T12:30:00Z"])
/// ```
///
/// Numbers convert by value: an integer type accepts an ``JSONValue/int(_:)`` or a
/// ``JSONValue/double(_:)`` with an exact integer value in its range (`2.0` decodes as `Int`;
/// `1.5` and `300` as `UInt8` throw `DecodingError.dataCorrupted`); a floating-point type
/// accepts either. A missing key throws `keyNotFound`, `null` where a value is required
/// throws `valueNotFound`, and a value of the wrong kind throws `typeMismatch`;
/// `decodeIfPresent` returns `nil` for a missing key or `null`.
///
/// As with `JSONDecoder`, `Data` decodes from a Base64 string, `URL` from a string, and
/// `Decimal` from a number; ``JSONValue``, ``JSONObject`` and `[String: Value]` dictionaries
/// decode with their keys as they are, whatever the key decoding strategy.
public struct JSONValueDecoder: Sendable {
    /// How object keys are matched to the keys of decoded types.
    ///
    /// ```swift
    /// decoder.keyDecodingStrategy = .convertFromSnakeCase
    /// ```
    public enum KeyDecodingStrategy: Sendable {
        /// Match each key's `stringValue` exactly. The default.
        case useDefaultKeys

        /// Convert `snake_case` object keys to `camelCase` before matching, as `JSONDecoder`
        /// does: `created_at` matches `createdAt`. As there, `my_url` becomes `myUrl`, which
        /// does not match a property named `myURL`.
        case convertFromSnakeCase

        /// Compute the key to match from the coding path; the last element holds the object
        /// key being converted.
        ///
        /// ```swift
        /// // AnyKey: your CodingKey type with a non-failable init(stringValue:)
        /// decoder.keyDecodingStrategy = .custom { path in
        ///     AnyKey(stringValue: path[path.count - 1].stringValue.lowercased())
        /// }
        /// ```
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    /// How `Date` values are decoded.
    ///
    /// ```swift
    /// decoder.dateDecodingStrategy = .millisecondsSince1970
    /// ```
    public enum DateDecodingStrategy: Sendable {
        /// An ISO 8601 (RFC 3339) string such as `2024-05-01T12:30:00Z` or
        /// `2024-05-01T14:30:00.250+02:00`: fractional seconds are optional and may have any
        /// number of digits. The default.
        case iso8601

        /// A number of seconds since 1 January 1970 UTC.
        case secondsSince1970

        /// A number of milliseconds since 1 January 1970 UTC, as JavaScript's `getTime()`
        /// returns.
        case millisecondsSince1970

        /// Whatever `Date`'s own `Decodable` conformance reads (seconds since 1 January
        /// 2001).
        case deferredToDate
    }

    /// How object keys are matched to the keys of decoded types;
    /// ``KeyDecodingStrategy/useDefaultKeys`` by default.
    ///
    /// ```swift
    /// decoder.keyDecodingStrategy = .convertFromSnakeCase
    /// ```
    public var keyDecodingStrategy: KeyDecodingStrategy = .useDefaultKeys

    /// How `Date` values are decoded; ``DateDecodingStrategy/iso8601`` by default.
    ///
    /// ```swift
    /// decoder.dateDecodingStrategy = .secondsSince1970
    /// ```
    public var dateDecodingStrategy: DateDecodingStrategy = .iso8601

    /// Context for the values being decoded, available to them as `decoder.userInfo`.
    ///
    /// ```swift
    /// decoder.userInfo[.apiVersion] = 2
    /// ```
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates a decoder with the given strategies.
    ///
    /// ```swift
    /// let decoder = JSONValueDecoder(keyDecodingStrategy: .convertFromSnakeCase)
    /// ```
    ///
    /// - Parameters:
    ///   - keyDecodingStrategy: How object keys are matched to the keys of decoded types.
    ///   - dateDecodingStrategy: How dates are decoded.
    public init(
        keyDecodingStrategy: KeyDecodingStrategy = .useDefaultKeys,
        dateDecodingStrategy: DateDecodingStrategy = .iso8601
    ) {
        self.keyDecodingStrategy = keyDecodingStrategy
        self.dateDecodingStrategy = dateDecodingStrategy
    }

    /// Decodes a value of type `T` from `value`.
    ///
    /// ```swift
    /// let note = try JSONValueDecoder().decode(Note.self, from: .object(model.attributes))
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - value: The JSON value to decode it from.
    /// - Returns: The decoded value.
    /// - Throws: `DecodingError` when `value` does not match what `T` expects, or any error
    ///   `T`'s `init(from:)` throws.
    /// - Complexity: O(*n*) in the size of the decoded part of `value`.
    public func decode<T: Decodable>(_ type: T.Type = T.self, from value: JSONValue) throws -> T {
        let decoder = JSONValueDecoding(value: value, codingPath: [], configuration: self)
        return try decoder.unbox(value, as: T.self, at: [])
    }
}
