import Foundation

/// A decorator that logs each request and its response or failure (method, URL, status,
/// duration, and optionally headers and bodies) to a closure you supply, with credentials
/// redacted: NSRails' `networkLogging`.
///
/// Each request gives two ``SyncLogEntry`` values: a ``SyncLogEntry/Kind/request`` before it is
/// sent, then a ``SyncLogEntry/Kind/response`` or ``SyncLogEntry/Kind/failure`` with the time
/// the wrapped backend took. Entries share a ``SyncLogEntry/requestNumber``. The closure runs
/// on the calling task, so keep it quick; it is never given a credential that ``redaction``
/// hides (headers, query items and body fields, at any depth).
///
/// ```swift
/// let api = LoggingSync(RESTSync(baseURL: URL(string: "https://api.example.com")!)) { entry in
///     print(entry.message)
/// }
/// // GET https://api.example.com/notes/7
/// // GET https://api.example.com/notes/7 → 200 (12 ms)
/// ```
///
/// Keel has no dependency on a logging package; to log through swift-log, forward
/// ``SyncLogEntry/level``, ``SyncLogEntry/message`` and ``SyncLogEntry/metadata`` to a `Logger`
/// (see ``SyncLogEntry``).
///
/// > Note: The decorator logs what passes through it. Headers a backend adds itself, such as
/// > ``RESTSync/headers``, are not seen; wrap ``TokenAuthSync`` in a `LoggingSync` (or the
/// > other way round to see its `Authorization`, redacted).
public final class LoggingSync: SyncDecorator {
    /// Receives each entry.
    public typealias Handler = @Sendable (SyncLogEntry) -> Void

    /// The backend that sends the requests.
    public let base: any Sync
    /// Whether entries carry request and response bodies (redacted).
    public let logsBodies: Bool
    /// Which headers, query items and body fields are logged as ``SyncLogRedaction/placeholder``.
    public let redaction: SyncLogRedaction

    private let handler: Handler
    private let counter = Lock(0)

    /// Creates a decorator that logs to `handler`.
    ///
    /// ```swift
    /// let api = LoggingSync(rest, logsBodies: true) { entry in
    ///     if entry.level >= .info { print(entry.message, entry.body ?? "") }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - base: The backend that sends the requests.
    ///   - logsBodies: Whether entries carry bodies; `false` by default, since bodies may hold
    ///     personal data that no name reveals.
    ///   - redaction: What to hide; by default ``SyncLogRedaction/standard``.
    ///   - handler: Receives each entry, on the calling task.
    public init(
        _ base: any Sync,
        logsBodies: Bool = false,
        redaction: SyncLogRedaction = .standard,
        handler: @escaping Handler
    ) {
        self.base = base
        self.logsBodies = logsBodies
        self.redaction = redaction
        self.handler = handler
    }

    /// Logs the request, sends it through ``base``, then logs the response or the failure.
    ///
    /// ```swift
    /// let response = try await api.perform(SyncRequest(method: .read, url: URL(string: "/notes")!))
    /// ```
    ///
    /// - Parameter request: The operation.
    /// - Returns: The base's response, unchanged.
    /// - Throws: The base's ``SyncError``, unchanged.
    public func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        let number = counter.withLock { count in
            count += 1
            return count
        }
        var entry = SyncLogEntry(
            kind: .request,
            requestNumber: number,
            method: request.method,
            url: redactedURL(of: request),
            headers: redaction.redacting(request.headers),
            body: logsBodies ? request.body.map(redaction.redacting) : nil
        )
        handler(entry)
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let response = try await base.perform(request)
            entry.kind = .response
            entry.headers = redaction.redacting(response.headers)
            entry.body = logsBodies ? response.body.map(redaction.redacting) : nil
            entry.status = response.status
            entry.duration = clock.now - start
            handler(entry)
            return response
        } catch {
            entry.kind = .failure
            entry.headers = [:]
            entry.body = logsBodies ? Self.body(of: error).map(redaction.redacting) : nil
            entry.status = error.status
            entry.duration = clock.now - start
            entry.error = error
            handler(entry)
            throw error
        }
    }

    /// The request's URL with its query items appended and hidden ones' values replaced.
    private func redactedURL(of request: SyncRequest) -> URL {
        guard var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) else {
            return request.url
        }
        let items = (components.queryItems ?? []) + request.query
        guard !items.isEmpty else { return request.url }
        components.queryItems = items.map { item in
            redaction.hidesHeader(item.name) ? URLQueryItem(name: item.name, value: SyncLogRedaction.placeholder) : item
        }
        return components.url ?? request.url
    }

    /// The response body an error carries.
    private static func body(of error: SyncError) -> JSONValue? {
        switch error {
        case .httpStatus(_, let body), .mediaTypeRefused(_, _, let body): return body
        case .undecodableBody(_, _, let text): return .string(text)
        default: return nil
        }
    }
}
