public import Foundation

/// How a server writes one date attribute: ISO 8601 (the app's own form), a calendar date
/// (a Rails `date` column), a Unix timestamp, or a `DateFormatter` pattern (NSRails'
/// `dateFormat`).
///
/// Name the formats of particular attributes in ``WireFormat/dateFormats``: responses are read
/// from them into ISO 8601 strings, which ``AttributeKey``s of `Date` and `Codable` bridging
/// read, and request bodies carry them back in the server's format.
///
/// ```swift
/// var format = WireFormat.rails
/// format.dateFormats["dueOn"] = .calendarDate                       // "2026-11-28"
/// format.dateFormats["seenAt"] = .secondsSince1970                  // 1795824000
/// format.dateFormats["shippedAt"] = .pattern("dd/MM/yyyy HH:mm")    // "28/11/2026 09:30"
/// ```
public struct DateFormat: Sendable, Hashable, CustomStringConvertible {
    private enum Kind: Hashable {
        case iso8601
        case calendarDate
        case secondsSince1970
        case millisecondsSince1970
        case pattern(String, timeZone: TimeZone, locale: Locale)
    }

    private let kind: Kind

    /// An ISO 8601 (RFC 3339) timestamp, `2026-11-28T09:30:00Z`, with any fraction of a second
    /// and offset: what `Date`'s ``JSONRepresentable`` conformance reads and writes.
    ///
    /// ```swift
    /// try DateFormat.iso8601.date(from: "2026-11-28T09:30:00+01:00")
    /// ```
    public static let iso8601 = DateFormat(kind: .iso8601)

    /// A calendar date without a time, `2026-11-28` (a Rails `date`, a Django `DateField`), at
    /// midnight UTC; a date written back is the UTC day it falls on.
    ///
    /// ```swift
    /// DateFormat.calendarDate.value(for: Date(timeIntervalSince1970: 0))  // "1970-01-01"
    /// ```
    public static let calendarDate = DateFormat(kind: .calendarDate)

    /// A Unix timestamp: seconds since 1 January 1970 UTC, as a number (or a string of one, as
    /// PHP servers send them); written as an integer when whole.
    ///
    /// ```swift
    /// try DateFormat.secondsSince1970.date(from: 1_795_824_000)
    /// ```
    public static let secondsSince1970 = DateFormat(kind: .secondsSince1970)

    /// Milliseconds since 1 January 1970 UTC, as JavaScript's `getTime()` returns them.
    ///
    /// ```swift
    /// try DateFormat.millisecondsSince1970.date(from: 1_795_824_000_000)
    /// ```
    public static let millisecondsSince1970 = DateFormat(kind: .millisecondsSince1970)

    /// A `DateFormatter` pattern (`dd/MM/yyyy HH:mm`), read strictly: text that does not match
    /// the whole pattern is an error.
    ///
    /// ```swift
    /// let format = DateFormat.pattern("dd/MM/yyyy HH:mm", timeZone: TimeZone(identifier: "Europe/Paris")!)
    /// ```
    ///
    /// - Parameters:
    ///   - pattern: The Unicode date pattern.
    ///   - timeZone: The time zone of dates without an offset in the pattern; UTC by default.
    ///   - locale: The locale of month and day names; `en_US_POSIX` by default.
    /// - Returns: The format.
    public static func pattern(
        _ pattern: String,
        timeZone: TimeZone = TimeZone(identifier: "UTC") ?? .current,
        locale: Locale = Locale(identifier: "en_US_POSIX")
    ) -> DateFormat {
        DateFormat(kind: .pattern(pattern, timeZone: timeZone, locale: locale))
    }

    /// The format as its documentation names it (`ISO 8601`, `yyyy-MM-dd`, …).
    ///
    /// ```swift
    /// DateFormat.calendarDate.description  // "yyyy-MM-dd"
    /// ```
    public var description: String {
        switch kind {
        case .iso8601: "ISO 8601"
        case .calendarDate: "yyyy-MM-dd"
        case .secondsSince1970: "seconds since 1970"
        case .millisecondsSince1970: "milliseconds since 1970"
        case .pattern(let pattern, _, _): pattern
        }
    }

    /// The date a value in this format stands for.
    ///
    /// ```swift
    /// try DateFormat.calendarDate.date(from: "2026-11-28")  // 2026-11-28T00:00:00Z
    /// try DateFormat.calendarDate.date(from: "28/11/2026")  // throws DateFormatError
    /// ```
    ///
    /// - Parameter value: The JSON value.
    /// - Returns: The date.
    /// - Throws: ``DateFormatError`` naming the value and the format when the value is not a
    ///   date in this format.
    public func date(from value: JSONValue) throws(DateFormatError) -> Date {
        guard let date = parsed(value) else { throw DateFormatError(value: value, format: self) }
        return date
    }

    /// The value that stands for a date in this format.
    ///
    /// ```swift
    /// DateFormat.secondsSince1970.value(for: Date(timeIntervalSince1970: 86_400))  // 86400
    /// ```
    ///
    /// - Parameter date: The date.
    /// - Returns: The JSON value.
    public func value(for date: Date) -> JSONValue {
        switch kind {
        case .iso8601:
            return .string(ISO8601Timestamp.string(from: date))
        case .calendarDate:
            return .string(String(ISO8601Timestamp.string(from: date).prefix { $0 != "T" }))
        case .secondsSince1970:
            return Self.number(date.timeIntervalSince1970)
        case .millisecondsSince1970:
            return Self.number((date.timeIntervalSince1970 * 1000).rounded())
        case .pattern(let pattern, let timeZone, let locale):
            return .string(Self.withFormatter(pattern, timeZone, locale) { $0.string(from: date) })
        }
    }

    private func parsed(_ value: JSONValue) -> Date? {
        switch kind {
        case .iso8601:
            return value.stringValue.flatMap(ISO8601Timestamp.date(from:))
        case .calendarDate:
            guard let text = value.stringValue, text.utf8.count == 10 else { return nil }
            return ISO8601Timestamp.date(from: text + "T00:00:00Z")
        case .secondsSince1970:
            return Self.seconds(in: value).map { Date(timeIntervalSince1970: $0) }
        case .millisecondsSince1970:
            return Self.seconds(in: value).map { Date(timeIntervalSince1970: $0 / 1000) }
        case .pattern(let pattern, let timeZone, let locale):
            guard let text = value.stringValue else { return nil }
            return Self.withFormatter(pattern, timeZone, locale) { $0.date(from: text) }
        }
    }

    /// The number in a value: a JSON number, or a string that holds one.
    private static func seconds(in value: JSONValue) -> Double? {
        switch value {
        case .int(let int): return Double(int)
        case .double(let double): return double.isFinite ? double : nil
        case .string(let text): return Double(text).flatMap { $0.isFinite ? $0 : nil }
        default: return nil
        }
    }

    private static func number(_ value: Double) -> JSONValue {
        if value == value.rounded(), let int = Int(exactly: value) { return .int(int) }
        return .double(value)
    }

    private struct FormatterKey: Hashable {
        let pattern: String
        let timeZone: TimeZone
        let locale: Locale
    }

    /// One strict formatter per pattern, time zone and locale: making a `DateFormatter` costs
    /// far more than using one, and one is used by one thread at a time.
    private static let formatters = Lock<[FormatterKey: DateFormatter]>([:])

    private static func withFormatter<Result: Sendable>(
        _ pattern: String,
        _ timeZone: TimeZone,
        _ locale: Locale,
        _ body: (DateFormatter) -> Result
    ) -> Result {
        formatters.withLock { formatters in
            let key = FormatterKey(pattern: pattern, timeZone: timeZone, locale: locale)
            if let formatter = formatters[key] { return body(formatter) }
            let formatter = DateFormatter()
            formatter.dateFormat = pattern
            formatter.timeZone = timeZone
            formatter.locale = locale
            formatter.isLenient = false
            formatters[key] = formatter
            return body(formatter)
        }
    }
}

/// A value that is not a date in the format an attribute declares.
///
/// ```swift
/// do { _ = try DateFormat.calendarDate.date(from: "soon") } catch { print(error) }
/// // "soon" is not a date in the format yyyy-MM-dd
/// ```
public struct DateFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The value as it was given.
    public let value: JSONValue
    /// The format it does not fit.
    public let format: DateFormat

    /// Creates the error for a value and the format it does not fit.
    ///
    /// ```swift
    /// throw DateFormatError(value: "soon", format: .calendarDate)
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value as it was given.
    ///   - format: The format it does not fit.
    public init(value: JSONValue, format: DateFormat) {
        self.value = value
        self.format = format
    }

    /// Why the value is not a date.
    ///
    /// ```swift
    /// error.description  // "soon" is not a date in the format yyyy-MM-dd
    /// ```
    public var description: String {
        "\(value.debugDescription.prefix(100)) is not a date in the format \(format)"
    }
}
