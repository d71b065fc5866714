import Foundation

/// A decorator that sends identical reads in flight once: every caller of a `read` with the
/// same URL, query and headers as one already on its way waits for that request and gets its
/// answer, or its error.
///
/// ```swift
/// let api = DeduplicatingSync(RESTSync(baseURL: URL(string: "https://api.example.com")!))
/// async let first = api.perform(SyncRequest(method: .read, url: URL(string: "/notes")!))
/// async let second = api.perform(SyncRequest(method: .read, url: URL(string: "/notes")!))
/// let (a, b) = try await (first, second)   // one GET /notes, two answers
/// ```
///
/// Cancelling one caller ends its wait at once with ``SyncError/cancelled`` and leaves the
/// request running for the others; when every caller has cancelled, the request is cancelled
/// too. A read that starts after the shared one has finished sends a new request. Other
/// methods pass straight through.
public final class DeduplicatingSync: SyncDecorator {
    /// The backend that sends the requests.
    public let base: any Sync

    /// What makes two reads the same.
    private struct Key: Hashable {
        let url: URL
        let query: [URLQueryItem]
        let headers: [String: String]
        let timeout: Duration?
    }

    private let flights = SharedFlights<Key, SyncResponse>()

    /// Creates a decorator that shares identical reads in flight.
    ///
    /// ```swift
    /// let api = DeduplicatingSync(rest)
    /// ```
    ///
    /// - Parameter base: The backend that sends the requests.
    public init(_ base: any Sync) {
        self.base = base
    }

    /// Sends the request, or waits for the identical read already in flight.
    ///
    /// ```swift
    /// let response = try await api.perform(SyncRequest(method: .read, url: URL(string: "/notes")!))
    /// ```
    ///
    /// - Parameter request: The operation.
    /// - Returns: The response of the shared request.
    /// - Throws: The shared request's ``SyncError``, or ``SyncError/cancelled`` when this
    ///   caller's task is cancelled.
    public func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        guard request.method == .read else { return try await base.perform(request) }
        let key = Key(url: request.url, query: request.query, headers: request.headers, timeout: request.timeout)
        let base = self.base
        return try await flights.outcome(for: key) { () async -> Result<SyncResponse, SyncError> in
            do throws(SyncError) {
                return .success(try await base.perform(request))
            } catch {
                return .failure(error)
            }
        }.get()
    }

    /// How many callers wait for a shared request now.
    var waitingCount: Int { flights.waitingCount }
}
