import Foundation

/// The cookies a response's `Set-Cookie` header deletes: those it sets with `Max-Age` of zero
/// or less, or an `Expires` in the past, as a server's logout does.
///
/// ```swift
/// CookieDeletions.names(in: "sessionid=\"\"; Max-Age=0; Path=/", now: Date())  // ["sessionid"]
/// ```
enum CookieDeletions {
    /// The names of the cookies a `Set-Cookie` header (several joined with commas, as
    /// `HTTPURLResponse` joins them) sets with `Max-Age` of zero or less, or an `Expires`
    /// before `now`.
    static func names(in setCookie: String, now: Date) -> [String] {
        // A comma starts another cookie only where `name=` follows it; the comma of an
        // `Expires` date ("Thu, 01 Jan 1970") is followed by the day.
        let cookies = setCookie.split(separator: /,\s*(?=[^;,=\s]+=)/)
        return cookies.compactMap { cookie -> String? in
            let parts = cookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = parts.first, let equals = first.firstIndex(of: "=") else { return nil }
            var isDeleted = false
            for attribute in parts.dropFirst() {
                let pair = attribute.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2 else { continue }
                switch pair[0].lowercased() {
                case "max-age": if let seconds = Int(pair[1]), seconds <= 0 { isDeleted = true }
                case "expires": if let date = HTTPDate.parse(pair[1]), date < now { isDeleted = true }
                default: break
                }
            }
            return isDeleted ? String(first[..<equals]) : nil
        }
    }
}
