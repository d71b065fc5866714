import Foundation

/// Formats and parses RFC 3339 (ISO 8601) timestamps such as `2024-05-01T12:30:00.250Z`,
/// without `DateFormatter` and independently of the current locale and calendar.
enum ISO8601Timestamp {
    private static let microsecondsPerDay: Int64 = 86_400_000_000

    /// The date in UTC: `2024-05-01T12:30:00Z`, with milliseconds (`.250`) when the date is
    /// not on a whole second, as JavaScript's `toISOString()` writes them, and with
    /// microseconds (`.250125`) when it is not on a whole millisecond, as Rails and Django
    /// write them, so their timestamps round-trip exactly.
    static func string(from date: Date) -> String {
        let microseconds = (date.timeIntervalSince1970 * 1_000_000).rounded()
        // ±8.64e18 µs is the range of JavaScript dates; clamp anything beyond it.
        let total = Int64(max(-8.64e18, min(8.64e18, microseconds.isNaN ? 0 : microseconds)))
        let days = floorDivide(total, microsecondsPerDay)
        let timeOfDay = total - days * microsecondsPerDay
        let (year, month, day) = civilDate(fromDaysSinceEpoch: days)

        var text = ""
        text.reserveCapacity(27)
        if year < 0 {
            text += "-"
            append(-year, digits: 6, to: &text)
        } else if year > 9999 {
            text += "+"
            append(year, digits: 6, to: &text)
        } else {
            append(year, digits: 4, to: &text)
        }
        text += "-"
        append(month, digits: 2, to: &text)
        text += "-"
        append(day, digits: 2, to: &text)
        text += "T"
        append(timeOfDay / 3_600_000_000, digits: 2, to: &text)
        text += ":"
        append(timeOfDay / 60_000_000 % 60, digits: 2, to: &text)
        text += ":"
        append(timeOfDay / 1_000_000 % 60, digits: 2, to: &text)
        let fraction = timeOfDay % 1_000_000
        if fraction % 1000 != 0 {
            text += "."
            append(fraction, digits: 6, to: &text)
        } else if fraction != 0 {
            text += "."
            append(fraction / 1000, digits: 3, to: &text)
        }
        text += "Z"
        return text
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS`, optionally with a fraction of a second of any length, then `Z`
    /// or an offset `±HH:MM` (or `±HHMM`).
    ///
    /// `t`, `z` and a space in place of `T` are accepted, as RFC 3339 allows.
    static func date(from string: String) -> Date? {
        var scanner = Scanner(Array(string.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
            let month = scanner.number(digits: 2), scanner.skip("-"),
            let day = scanner.number(digits: 2),
            scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
            let hour = scanner.number(digits: 2), scanner.skip(":"),
            let minute = scanner.number(digits: 2), scanner.skip(":"),
            let second = scanner.number(digits: 2)
        else { return nil }
        guard (1...12).contains(month), (1...daysInMonth(year: year, month: month)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else { return nil }

        var fraction = 0.0
        if scanner.skip(".") || scanner.skip(",") {
            // Digits past nanoseconds are below a Double's precision for current dates.
            var numerator: Int64 = 0
            var denominator: Int64 = 1
            var digitCount = 0
            while let digit = scanner.digit() {
                if digitCount < 9 {
                    numerator = numerator * 10 + digit
                    denominator *= 10
                }
                digitCount += 1
            }
            guard digitCount > 0 else { return nil }
            fraction = Double(numerator) / Double(denominator)
        }

        var offsetMinutes: Int64 = 0
        if scanner.skip("Z") || scanner.skip("z") {
            // UTC
        } else if let sign: Int64 = scanner.skip("+") ? 1 : scanner.skip("-") ? -1 : nil {
            guard let offsetHour = scanner.number(digits: 2), (0...23).contains(offsetHour) else { return nil }
            _ = scanner.skip(":")
            guard let offsetMinute = scanner.number(digits: 2), (0...59).contains(offsetMinute) else { return nil }
            offsetMinutes = sign * (offsetHour * 60 + offsetMinute)
        } else {
            return nil
        }
        guard scanner.isAtEnd else { return nil }

        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    // MARK: - Calendar arithmetic (proleptic Gregorian, after Howard Hinnant)

    private static func floorDivide(_ dividend: Int64, _ divisor: Int64) -> Int64 {
        let quotient = dividend / divisor
        return dividend % divisor < 0 ? quotient - 1 : quotient
    }

    private static func civilDate(fromDaysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let adjustedYear = month <= 2 ? year - 1 : year
        let era = floorDivide(adjustedYear, 400)
        let yearOfEra = adjustedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2:
            let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            return isLeap ? 29 : 28
        case 4, 6, 9, 11:
            return 30
        default:
            return 31
        }
    }

    private static func append(_ value: Int64, digits: Int, to text: inout String) {
        let decimal = String(value)
        if decimal.count < digits { text += String(repeating: "0", count: digits - decimal.count) }
        text += decimal
    }

    /// Reads ASCII bytes front to back.
    private struct Scanner {
        private let bytes: [UInt8]
        private var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { position == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        mutating func digit() -> Int64? {
            guard position < bytes.count else { return nil }
            let value = bytes[position] &- UInt8(ascii: "0")
            guard value < 10 else { return nil }
            position += 1
            return Int64(value)
        }

        mutating func number(digits: Int) -> Int64? {
            var result: Int64 = 0
            for _ in 0..<digits {
                guard let digit = digit() else { return nil }
                result = result * 10 + digit
            }
            return result
        }
    }
}
