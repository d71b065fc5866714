public import Foundation

/// One line of ``LoggingSync``'s log: a request about to be sent, its response, or its failure,
/// with credentials already redacted.
///
/// ```swift
/// let api = LoggingSync(rest) { entry in
///     print(entry.message)  // GET https://api.example.com/notes/7 → 200 (12 ms)
/// }
/// ```
///
/// To send entries to swift-log, map ``level`` and ``metadata``:
///
/// ```swift
/// let logger = Logger(label: "api")
/// let api = LoggingSync(rest) { entry in
///     let level: Logger.Level = entry.level == .error ? .error : entry.level == .info ? .info : .debug
///     logger.log(level: level, "\(entry.message)", metadata: entry.metadata.mapValues { .string($0) })
/// }
/// ```
public struct SyncLogEntry: Sendable, Hashable {
    /// What an entry reports.
    public enum Kind: String, Sendable, Hashable {
        /// The request is about to be sent.
        case request
        /// The backend answered.
        case response
        /// The backend threw.
        case failure
    }

    /// How much an entry matters: requests are ``debug``, responses ``info``, failures ``error``.
    public enum Level: String, Sendable, Hashable, Comparable {
        /// A request about to be sent.
        case debug
        /// A response.
        case info
        /// A failure.
        case error

        /// Orders levels from ``debug`` to ``error``.
        ///
        /// ```swift
        /// SyncLogEntry.Level.debug < .error  // true
        /// ```
        public static func < (lhs: Level, rhs: Level) -> Bool {
            let order: [Level] = [.debug, .info, .error]
            return order.firstIndex(of: lhs) ?? 0 < order.firstIndex(of: rhs) ?? 0
        }
    }

    /// What the entry reports.
    public var kind: Kind
    /// A number shared by a request's entries, counting up per ``LoggingSync``.
    public var requestNumber: Int
    /// The request's method.
    public var method: SyncMethod
    /// The request's URL with its query (``SyncRequest/query`` included), hidden values replaced.
    public var url: URL
    /// The request's headers (for ``Kind/request``) or the response's (for ``Kind/response``),
    /// hidden values replaced; empty for ``Kind/failure``.
    public var headers: [String: String]
    /// The request's or the response's body, hidden fields replaced, when the decorator logs
    /// bodies; otherwise `nil`.
    public var body: JSONValue?
    /// The response's status, or the failure's (``SyncError/status``).
    public var status: Int?
    /// How long the backend took, for ``Kind/response`` and ``Kind/failure``.
    public var duration: Duration?
    /// The failure, for ``Kind/failure``.
    public var error: SyncError?

    /// ``Level/debug`` for a request, ``Level/info`` for a response, ``Level/error`` for a failure.
    ///
    /// ```swift
    /// if entry.level >= .info { print(entry.message) }
    /// ```
    public var level: Level {
        switch kind {
        case .request: return .debug
        case .response: return .info
        case .failure: return .error
        }
    }

    /// One line for people: `GET /notes/7`, `GET /notes/7 → 200 (12 ms)`, or
    /// `GET /notes/7 failed (3 ms): The request timed out`.
    ///
    /// ```swift
    /// print(entry.message)
    /// ```
    public var message: String {
        let target = "\(method.httpMethod) \(url.absoluteString)"
        let elapsed = duration.map { " (\(Self.milliseconds($0)) ms)" } ?? ""
        switch kind {
        case .request: return target
        case .response: return "\(target) → \(status ?? 0)\(elapsed)"
        case .failure: return "\(target) failed\(elapsed): \(error.map(Self.describe) ?? "")"
        }
    }

    /// The entry's fields as strings, for structured loggers: `method`, `url`, `request`, and
    /// `status`, `duration_ms` and `error` when known.
    ///
    /// ```swift
    /// entry.metadata["status"]  // "200"
    /// ```
    public var metadata: [String: String] {
        var result = ["method": method.httpMethod, "url": url.absoluteString, "request": String(requestNumber)]
        if let status { result["status"] = String(status) }
        if let duration { result["duration_ms"] = String(Self.milliseconds(duration)) }
        if let error { result["error"] = Self.describe(error) }
        return result
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }

    /// A failure without the body an HTTP error carries, which ``body`` logs redacted when
    /// asked; an HTML page is summarized.
    private static func describe(_ error: SyncError) -> String {
        guard case .httpStatus(let status, let body) = error else { return error.description }
        return "The server answered \(status)" + (error.errorPageSummary.map { ": \($0)" } ?? (body == nil ? "" : " with a body"))
    }
}
