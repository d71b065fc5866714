import Foundation
import Keel
import KeelSQLite

/// How `todos` words a server's failure: short, for a person, whatever the server sent.
///
/// A server that is not a todos server (a wrong `--server`) often answers with a whole HTML
/// page; only its status and its title, or its first line of text, are shown.
enum ServerAnswer {
    /// What went wrong, as it relates to reaching the server.
    enum Kind: Equatable {
        /// No connection, or no answer in time.
        case unreachable
        /// The server answered with an error that may go away (a 5xx, 429, 408).
        case serverError
        /// The server refused the request (another 4xx, or an answer `todos` cannot use).
        case rejected
    }

    /// Sorts an error of the server's backend.
    static func kind(of error: SyncError) -> Kind {
        switch error {
        case .transport, .timedOut, .cancelled: return .unreachable
        default: return CachingSync.isTemporary(error) ? .serverError : .rejected
        }
    }

    /// The failure in a few words: `500 Internal Server Error ("Server Error (500)")`,
    /// `422: Title can't be blank`, `connection refused`.
    static func summary(of error: SyncError) -> String {
        switch error {
        case .transport(let reason):
            return reason
        case .timedOut:
            return "no answer in time"
        case .validationFailed(let errors, let status):
            let messages = errors.fullMessages.map { $0.prefix(1).uppercased() + $0.dropFirst() }
            return (status.map { "\($0): " } ?? "") + messages.joined(separator: "; ")
        case .httpStatus(let status, let body):
            return statusLine(status) + (body.flatMap(gist).map { " (\"\($0)\")" } ?? "")
        case .undecodableBody(let status, _, let text):
            return statusLine(status) + (gist(of: text).map { " (\"\($0)\")" } ?? "") + ", which is not JSON"
        default:
            return String(describing: error)
        }
    }

    /// `404 Not Found`.
    static func statusLine(_ status: Int) -> String {
        reasons[status].map { "\(status) \($0)" } ?? "status \(status)"
    }

    private static let reasons: [Int: String] = [
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        406: "Not Acceptable", 408: "Request Timeout", 409: "Conflict", 410: "Gone", 412: "Precondition Failed",
        413: "Content Too Large", 415: "Unsupported Media Type", 422: "Unprocessable Content",
        429: "Too Many Requests", 500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
        503: "Service Unavailable", 504: "Gateway Timeout",
    ]

    /// The gist of a body: a `detail`, `error` or `message` string, an HTML page's title,
    /// or the first line of text, at most 80 characters; `nil` when there is none.
    private static func gist(_ body: JSONValue) -> String? {
        if let text = body.stringValue { return gist(of: text) }
        for key in ["detail", "error", "message"] {
            if let text = body[key]?.stringValue { return gist(of: text) }
        }
        return nil
    }

    private static func gist(of text: String) -> String? {
        var line: Substring
        if let title = element("title", in: text) ?? element("h1", in: text) {
            line = title
        } else {
            let plain = text.replacingOccurrences(of: "<[^>]*>", with: "\n", options: .regularExpression)
            line = plain.split(whereSeparator: \.isNewline).first { !$0.allSatisfy(\.isWhitespace) } ?? ""
        }
        line = Substring(decodingEntities(line))
        line = line.drop(while: \.isWhitespace)
        while line.last?.isWhitespace == true { line = line.dropLast() }
        guard !line.isEmpty else { return nil }
        let collapsed = line.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return collapsed.count > 80 ? String(collapsed.prefix(79)) + "…" : collapsed
    }

    /// The text with HTML's character references replaced (`&amp;`, `&#233;`, `&#xE9;` and
    /// a few common names); unknown ones stay as they are.
    private static func decodingEntities(_ text: Substring) -> String {
        let names = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "middot": "·"]
        var result = ""
        var rest = text
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            rest = rest[ampersand...]
            guard let semicolon = rest.prefix(10).firstIndex(of: ";") else {
                result += "&"
                rest = rest.dropFirst()
                continue
            }
            let name = rest[rest.index(after: rest.startIndex)..<semicolon]
            var replacement = names[String(name)]
            if name.hasPrefix("#") {
                let digits = name.dropFirst()
                let value =
                    digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
                replacement = value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            }
            if let replacement {
                result += replacement
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result += "&"
                rest = rest.dropFirst()
            }
        }
        return result + rest
    }

    /// The text inside the first `<name …>…</name>`, without tags.
    private static func element(_ name: String, in text: String) -> Substring? {
        guard let open = text.range(of: "<\(name)[^>]*>", options: [.regularExpression, .caseInsensitive]),
            let close = text.range(of: "</\(name)>", options: .caseInsensitive, range: open.upperBound..<text.endIndex)
        else { return nil }
        let inner = text[open.upperBound..<close.lowerBound]
        return Substring(inner.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression))
    }
}
