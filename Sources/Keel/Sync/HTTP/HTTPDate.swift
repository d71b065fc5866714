import Foundation

/// HTTP dates, in RFC 9110's preferred format (IMF-fixdate): `Wed, 21 Oct 2026 07:28:00 GMT`,
/// as `Retry-After` and a cookie's `Expires` carry them.
///
/// ```swift
/// let date = HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT")
/// ```
enum HTTPDate {
    /// The date `text` names, or `nil` when it is not an IMF-fixdate.
    static func parse(_ text: String) -> Date? {
        formatter.date(from: text.trimmingCharacters(in: .whitespaces))
    }

    private static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter
    }()
}
