/// What RFC 9110 allows in a header field, checked before a request is built.
///
/// `URLSession` writes a header name as it is given, so a line break in a name adds headers
/// of the caller's choosing; and it drops a header whose value holds a line break or a NUL
/// without a word, so a request that should carry a token goes out without it. Either is
/// refused here instead.
enum HTTPHeaderSyntax {
    /// Throws ``SyncError/invalidHeader(name:reason:)`` for the first header whose name is not
    /// a token or whose value has a control character other than a tab.
    static func validate(_ headers: [String: String]) throws(SyncError) {
        for (name, value) in headers {
            try validate(name: name, value: value)
        }
    }

    /// Throws ``SyncError/invalidHeader(name:reason:)`` when `name` is not a token or `value`
    /// has a control character other than a tab. The value is never in the error: it may be a
    /// credential.
    static func validate(name: String, value: String) throws(SyncError) {
        if let problem = nameProblem(name) { throw .invalidHeader(name: name, reason: problem) }
        if let problem = valueProblem(value) { throw .invalidHeader(name: name, reason: problem) }
    }

    /// Why `name` is not an RFC 9110 token, or `nil` when it is one.
    static func nameProblem(_ name: String) -> String? {
        guard !name.isEmpty else { return "the name is empty" }
        guard let bad = name.unicodeScalars.first(where: { !isTokenCharacter($0) }) else { return nil }
        return "the name has \(describe(bad)), and a header name is an RFC 9110 token"
    }

    /// Why `value` cannot be a field value (a control character other than a tab), or `nil`.
    static func valueProblem(_ value: String) -> String? {
        guard let bad = value.unicodeScalars.first(where: isControl) else { return nil }
        return "the value has \(describe(bad)), which cannot be sent in a header"
    }

    /// Whether `text` is an RFC 9110 token: one or more of `A-Z a-z 0-9 !#$%&'*+-.^_`|~` and
    /// the backtick.
    static func isToken<S: StringProtocol>(_ text: S) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy(isTokenCharacter)
    }

    /// Whether a character may appear in a token (RFC 9110's `tchar`).
    static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": return true
        case "!", "#", "$", "%", "&", "'", "*", "+", "-", ".", "^", "_", "`", "|", "~": return true
        default: return false
        }
    }

    /// Whether a character is a control character that no field value may hold: ASCII's C0
    /// controls but the tab, and DEL.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7F
    }

    /// A character named for an error message, such as `a line feed (U+000A)`.
    static func describe(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        let names: [UInt32: String] = [
            0x00: "a NUL", 0x09: "a tab", 0x0A: "a line feed", 0x0D: "a carriage return", 0x20: "a space",
            0x7F: "a DEL",
        ]
        if let name = names[scalar.value] { return "\(name) (\(code))" }
        if scalar.value < 0x20 { return "a control character (\(code))" }
        return "\"\(Character(scalar))\" (\(code))"
    }
}
