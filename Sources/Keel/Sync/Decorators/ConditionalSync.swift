import Foundation

/// A decorator that makes reads conditional: it remembers the `ETag` and `Last-Modified` of
/// each URL's last successful read, sends them back as `If-None-Match` and
/// `If-Modified-Since`, and answers a `304 Not Modified` with the response it remembered.
///
/// A server that supports validators (Django's `condition` decorator or
/// `ConditionalGetMiddleware`, Rails' `fresh_when`) then sends no body for a record or a list
/// that has not changed, and the model or collection sees the same answer as before: its
/// attributes stay as they are and it fires `sync`, not `error`.
///
/// ```swift
/// let api = ConditionalSync(RESTSync(baseURL: URL(string: "https://api.example.com")!))
/// let note = Note(["id": 1])
/// note.sync = api
/// try await note.fetch()   // 200 with ETag "v1"
/// try await note.fetch()   // sends If-None-Match: "v1"; a 304 leaves the note as it is
/// ```
///
/// Only `read` requests are made conditional, and only when the call sets neither header
/// itself. A successful `update`, `patch` or `delete` of a URL forgets what was remembered for
/// it. At most ``capacity`` responses are kept; the least recently used goes first.
///
/// > Note: Responses are remembered per URL and query, not per user: give each signed-in
/// > user their own `ConditionalSync`.
public final class ConditionalSync: SyncDecorator {
    /// The backend that sends the requests.
    public let base: any Sync
    /// How many responses are kept at most.
    public let capacity: Int

    private struct Entry {
        var response: SyncResponse
        var lastUse: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var clock: UInt64 = 0
    }

    private let state = Lock(State())

    /// Creates a decorator that makes reads conditional.
    ///
    /// ```swift
    /// let api = ConditionalSync(rest, capacity: 500)
    /// ```
    ///
    /// - Parameters:
    ///   - base: The backend that sends the requests.
    ///   - capacity: How many responses are kept at most (at least 1).
    public init(_ base: any Sync, capacity: Int = 100) {
        self.base = base
        self.capacity = max(1, capacity)
    }

    /// How many responses are remembered now.
    ///
    /// ```swift
    /// api.count  // 0 before the first read
    /// ```
    public var count: Int { state.withLock { $0.entries.count } }

    /// Forgets every remembered response.
    ///
    /// ```swift
    /// api.removeAll()   // after signing out
    /// ```
    public func removeAll() {
        state.withLock { $0 = State() }
    }

    /// Sends the request, conditionally for a read whose URL answered with validators before.
    ///
    /// ```swift
    /// let response = try await api.perform(SyncRequest(method: .read, url: URL(string: "/notes/1")!))
    /// ```
    ///
    /// - Parameter request: The operation.
    /// - Returns: The response; for a `304`, the remembered one.
    /// - Throws: ``SyncError``.
    /// - Complexity: O(1), and O(*n*) in ``capacity`` when a new response pushes out the oldest.
    public func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        let key = Self.key(of: request)
        guard request.method == .read else {
            let response = try await base.perform(request)
            state.withLock { _ = $0.entries.removeValue(forKey: key) }
            return response
        }
        let setsOwnValidators = request.headers.keys.contains {
            ["if-none-match", "if-modified-since"].contains($0.lowercased())
        }
        let remembered = setsOwnValidators ? nil : cachedResponse(for: key)
        var conditional = request
        if let remembered {
            if let etag = remembered.headers["etag"] { conditional.headers["If-None-Match"] = etag }
            if let date = remembered.headers["last-modified"] { conditional.headers["If-Modified-Since"] = date }
        }
        let response: SyncResponse
        do {
            response = try await base.perform(conditional)
        } catch .httpStatus(304, let body) {
            guard let remembered else { throw .httpStatus(304, body: body) }
            return remembered
        }
        if response.status == 304, let remembered { return remembered }
        if !setsOwnValidators && response.isSuccess
            && (response.headers["etag"] != nil || response.headers["last-modified"] != nil)
        {
            remember(response, for: key)
        }
        return response
    }

    // MARK: - Cache

    /// The URL with its query, which together name what a read returns.
    private static func key(of request: SyncRequest) -> String {
        let query = request.query.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
        return request.url.absoluteString + (query.isEmpty ? "" : "?" + query)
    }

    private func cachedResponse(for key: String) -> SyncResponse? {
        state.withLock { state in
            guard var entry = state.entries[key] else { return nil }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[key] = entry
            return entry.response
        }
    }

    private func remember(_ response: SyncResponse, for key: String) {
        let capacity = self.capacity
        state.withLock { state in
            state.clock += 1
            state.entries[key] = Entry(response: response, lastUse: state.clock)
            if state.entries.count > capacity,
                let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
            {
                state.entries.removeValue(forKey: oldest)
            }
        }
    }
}
