/// Which headers, query items and body fields ``LoggingSync`` hides: their values are logged
/// as `[REDACTED]`.
///
/// ``standard`` hides `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, CSRF
/// tokens (`X-CSRF-Token`, `X-CSRFToken`, `X-XSRF-Token`) and every header or query item whose
/// name has `token`, `secret`, `password`, `session`, `signature` or `api-key` (also `apikey`,
/// `api_key`, `x-api-key`) in it; and every body field, at any depth, whose name has
/// `password`, `passwd`, `secret`, `token`, `apikey`, `credential`, `privatekey`,
/// `authorization` or `cookie` in it once `_` and `-` are removed (`password_confirmation`,
/// `currentPassword`, `auth_token`, `api_key`).
/// Names match in any case.
///
/// ```swift
/// let redaction = SyncLogRedaction.standard.adding(headers: ["X-Tenant"], fields: ["ssn"])
/// let api = LoggingSync(rest, redaction: redaction) { print($0.message) }
/// ```
public struct SyncLogRedaction: Sendable, Hashable {
    /// What a hidden value is logged as.
    ///
    /// ```swift
    /// SyncLogRedaction.placeholder  // "[REDACTED]"
    /// ```
    public static let placeholder = "[REDACTED]"

    /// Header and query-item names hidden exactly (lowercased).
    public var headers: Set<String>
    /// Fragments that hide a header or query item whose lowercased name contains one.
    public var headerFragments: Set<String>
    /// Fragments that hide a body field whose name, lowercased with `_` and `-` removed,
    /// contains one.
    public var fieldFragments: Set<String>

    /// The names described above.
    ///
    /// ```swift
    /// LoggingSync(rest, redaction: .standard) { print($0.message) }
    /// ```
    public static let standard = SyncLogRedaction(
        headers: [
            "authorization", "proxy-authorization", "cookie", "set-cookie", "x-csrf-token", "x-csrftoken",
            "x-xsrf-token",
        ],
        headerFragments: ["token", "secret", "password", "session", "signature", "api-key", "apikey", "api_key"],
        fieldFragments: [
            "password", "passwd", "secret", "token", "apikey", "credential", "privatekey", "authorization", "cookie",
        ]
    )

    /// Creates a redaction from exact header names and name fragments.
    ///
    /// ```swift
    /// let onlyAuthorization = SyncLogRedaction(headers: ["Authorization"])
    /// ```
    ///
    /// - Parameters:
    ///   - headers: Header and query-item names hidden exactly, in any case.
    ///   - headerFragments: Header and query-item names that contain one of these are hidden.
    ///   - fieldFragments: Body fields whose names contain one of these (`_` and `-` ignored)
    ///     are hidden.
    public init(headers: Set<String> = [], headerFragments: Set<String> = [], fieldFragments: Set<String> = []) {
        self.headers = Set(headers.map { $0.lowercased() })
        self.headerFragments = Set(headerFragments.map { $0.lowercased() })
        self.fieldFragments = Set(fieldFragments.map(Self.normalizedField))
    }

    /// This redaction, also hiding the given header names and body fields exactly.
    ///
    /// ```swift
    /// let redaction = SyncLogRedaction.standard.adding(headers: ["X-Tenant"], fields: ["ssn"])
    /// ```
    ///
    /// - Parameters:
    ///   - headers: More header and query-item names to hide, in any case.
    ///   - fields: More body field names to hide; they hide fields that contain them.
    /// - Returns: The extended redaction.
    public func adding(headers: Set<String> = [], fields: Set<String> = []) -> SyncLogRedaction {
        var copy = self
        copy.headers.formUnion(headers.map { $0.lowercased() })
        copy.fieldFragments.formUnion(fields.map(Self.normalizedField))
        return copy
    }

    /// Whether a header or query item's value is hidden.
    ///
    /// ```swift
    /// SyncLogRedaction.standard.hidesHeader("X-Api-Key")  // true
    /// ```
    ///
    /// - Parameter name: The header or query item's name.
    /// - Returns: `true` when its value is logged as ``placeholder``.
    public func hidesHeader(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return headers.contains(lowered) || headerFragments.contains { lowered.contains($0) }
    }

    /// Whether a body field's value is hidden.
    ///
    /// ```swift
    /// SyncLogRedaction.standard.hidesField("password_confirmation")  // true
    /// ```
    ///
    /// - Parameter name: The field's name.
    /// - Returns: `true` when its value is logged as ``placeholder``.
    public func hidesField(_ name: String) -> Bool {
        let normalized = Self.normalizedField(name)
        return fieldFragments.contains { normalized.contains($0) }
    }

    /// The headers with hidden values replaced.
    func redacting(_ headers: [String: String]) -> [String: String] {
        var result = headers
        for name in headers.keys where hidesHeader(name) { result[name] = Self.placeholder }
        return result
    }

    /// The body with hidden fields' values replaced, at any depth.
    func redacting(_ body: JSONValue) -> JSONValue {
        switch body {
        case .object(let object):
            var result = JSONObject()
            for (key, value) in object {
                result[key] = hidesField(key) ? .string(Self.placeholder) : redacting(value)
            }
            return .object(result)
        case .array(let elements): return .array(JSONArray(elements.map(redacting)))
        default: return body
        }
    }

    private static func normalizedField(_ name: String) -> String {
        name.lowercased().filter { $0 != "_" && $0 != "-" }
    }
}
