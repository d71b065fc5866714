public import Foundation

// Foundation's value types as Rails, Django REST framework and most JSON APIs write them:
// dates as ISO 8601 strings, decimals as strings (so no digit is lost to a binary
// floating-point number), identifiers and URLs as strings.

extension Date: JSONRepresentable {
    /// The date of an ISO 8601 (RFC 3339) timestamp string, with any fraction of a second
    /// and a `Z` or `±HH:MM` offset, as Rails and Django REST framework write them.
    ///
    /// ```swift
    /// Date(json: "2026-11-23T19:49:06.123456Z")  // microseconds included
    /// ```
    public init?(json: JSONValue) {
        guard let text = json.stringValue, let date = ISO8601Timestamp.date(from: text) else { return nil }
        self = date
    }

    /// The date as an ISO 8601 string in UTC, with milliseconds or microseconds when it has
    /// them, so a server's timestamp is sent back exactly as it came.
    ///
    /// ```swift
    /// Date(timeIntervalSince1970: 0.25).json  // "1970-01-01T00:00:00.250Z"
    /// ```
    public var json: JSONValue { .string(ISO8601Timestamp.string(from: self)) }
}

extension Decimal: JSONRepresentable {
    /// The decimal of a string (`"12.50"`, as Rails and Django REST framework write
    /// decimals) or of a number.
    ///
    /// ```swift
    /// Decimal(json: "12.50")  // 12.5
    /// ```
    public init?(json: JSONValue) {
        switch json {
        case .string(let text):
            guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")),
                !decimal.isNaN
            else { return nil }
            self = decimal
        case .int(let int):
            self = Decimal(int)
        case .double(let double):
            guard double.isFinite, let decimal = Decimal(string: String(double)) else { return nil }
            self = decimal
        default:
            return nil
        }
    }

    /// The decimal as a string, which keeps every digit (a JSON number would go through a
    /// `Double` on most servers and clients).
    ///
    /// ```swift
    /// Decimal(string: "12.5")?.json  // "12.5"
    /// ```
    public var json: JSONValue { .string(NSDecimalNumber(decimal: self).description(withLocale: nil)) }
}

extension UUID: JSONRepresentable {
    /// The identifier of a UUID string, in either case.
    ///
    /// ```swift
    /// UUID(json: "0f8fad5b-d9cb-469f-a165-70867728950e")
    /// ```
    public init?(json: JSONValue) {
        guard let text = json.stringValue, let uuid = UUID(uuidString: text) else { return nil }
        self = uuid
    }

    /// The identifier as a lowercase string, as databases and servers write UUIDs.
    ///
    /// ```swift
    /// UUID().json  // "0f8fad5b-d9cb-469f-a165-70867728950e"
    /// ```
    public var json: JSONValue { .string(uuidString.lowercased()) }
}

extension URL: JSONRepresentable {
    /// The URL of a string; `nil` for a string that is not a valid URL.
    ///
    /// ```swift
    /// URL(json: "https://example.com/covers/1.jpg")
    /// ```
    public init?(json: JSONValue) {
        guard let text = json.stringValue, let url = URL(string: text) else { return nil }
        self = url
    }

    /// The URL as its absolute string.
    ///
    /// ```swift
    /// URL(string: "https://example.com")?.json  // "https://example.com"
    /// ```
    public var json: JSONValue { .string(absoluteString) }
}
