/// A decorator that keeps track of the requests in flight, so that you can cancel them by
/// method and path pattern (RestKit's `cancelAllObjectRequestOperationsWithMethod:matchingPathPattern:`).
///
/// ```swift
/// let api = CancellableSync(RESTSync(baseURL: URL(string: "https://api.example.com")!))
/// let invites = Collection<Invite>(url: "/users/7/invites", sync: api)
/// let loading = Task { try await invites.fetch().count }
/// api.cancelAll(.read, matchingPathPattern: "/users/:id/invites")   // that fetch throws .cancelled
/// ```
///
/// A pattern is a path whose `:name` segments match any one segment: `/users/:id/invites`
/// matches `/users/7/invites`, not `/users/7/invites/3` or `/users/invites`. It is compared with
/// the request's percent-encoded path (``SyncRequest/path``), ignoring a trailing slash.
/// A cancelled request throws ``SyncError/cancelled`` to its caller.
public final class CancellableSync: SyncDecorator {
    /// The backend that sends the requests.
    public let base: any Sync

    private struct Flight {
        let method: SyncMethod
        let path: String
        let task: Task<Result<SyncResponse, SyncError>, Never>
        /// Whether a ``cancelAll(_:matchingPathPattern:)`` has cancelled it already.
        var isCancelled = false
    }

    private struct State {
        var flights: [UInt64: Flight] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Lock(State())

    /// Creates a decorator whose requests in flight can be cancelled by pattern.
    ///
    /// ```swift
    /// let api = CancellableSync(rest)
    /// ```
    ///
    /// - Parameter base: The backend that sends the requests.
    public init(_ base: any Sync) {
        self.base = base
    }

    /// How many requests are in flight now.
    ///
    /// ```swift
    /// api.inFlightCount  // 0 when idle
    /// ```
    public var inFlightCount: Int { state.withLock { $0.flights.count } }

    /// Sends the request, keeping track of it until it is answered.
    ///
    /// ```swift
    /// let response = try await api.perform(SyncRequest(method: .read, url: URL(string: "/notes")!))
    /// ```
    ///
    /// - Parameter request: The operation.
    /// - Returns: The base's response.
    /// - Throws: The base's ``SyncError``; ``SyncError/cancelled`` when the request is cancelled
    ///   by ``cancelAll(_:matchingPathPattern:)`` or with its task.
    public func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        if Task.isCancelled { throw .cancelled }
        let base = self.base
        // The request runs in a task of its own, which cancelAll can reach.
        let task = Task { () async -> Result<SyncResponse, SyncError> in
            do throws(SyncError) {
                return .success(try await base.perform(request))
            } catch {
                return .failure(error)
            }
        }
        let id = state.withLock { state in
            state.nextID += 1
            state.flights[state.nextID] = Flight(method: request.method, path: request.path, task: task)
            return state.nextID
        }
        defer { state.withLock { _ = $0.flights.removeValue(forKey: id) } }
        let result = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        if task.isCancelled, case .failure = result { throw .cancelled }
        return try result.get()
    }

    /// Cancels every request in flight with this method (any method for `nil`) whose path
    /// matches the pattern (any path for `nil`).
    ///
    /// ```swift
    /// api.cancelAll(.read, matchingPathPattern: "/users/:id/invites")
    /// api.cancelAll()   // everything in flight
    /// ```
    ///
    /// - Parameters:
    ///   - method: The method of the requests to cancel, or `nil` for all.
    ///   - pattern: A path pattern such as `/users/:id/invites` (a trailing slash is ignored),
    ///     or `nil` for all paths.
    /// - Returns: How many requests were cancelled by this call: a request cancelled before
    ///   (by an earlier call, or with its caller's task) is not counted again.
    /// - Complexity: O(*n* × *p*), where *n* is the number of requests in flight and *p* the
    ///   length of the pattern.
    @discardableResult
    public func cancelAll(_ method: SyncMethod? = nil, matchingPathPattern pattern: String? = nil) -> Int {
        guard var pattern else { return cancelAll(method) { _ in true } }
        if pattern.count > 1, pattern.hasSuffix("/") { pattern.removeLast() }
        return cancelAll(method, matching: Route(pattern))
    }

    /// Cancels every request in flight with this method (any method for `nil`) whose path
    /// matches the route, such as one of a class's ``Routes``.
    ///
    /// ```swift
    /// api.cancelAll(.read, matching: User.routes.relationships["invites"]!)
    /// ```
    ///
    /// - Parameters:
    ///   - method: The method of the requests to cancel, or `nil` for all.
    ///   - route: The route whose paths to cancel: ``Route/parameters(in:)`` is not `nil` for them.
    /// - Returns: How many requests were cancelled by this call: a request cancelled before
    ///   is not counted again.
    /// - Complexity: O(*n* × *p*), where *n* is the number of requests in flight and *p* the
    ///   length of the route's pattern.
    @discardableResult
    public func cancelAll(_ method: SyncMethod? = nil, matching route: Route) -> Int {
        cancelAll(method) { route.parameters(in: $0) != nil }
    }

    /// Cancels the matching requests that are not cancelled yet, and counts them; a request
    /// that an earlier call or its own caller cancelled is not counted again.
    private func cancelAll(_ method: SyncMethod?, where pathMatches: (String) -> Bool) -> Int {
        let tasks = state.withLock { state in
            var tasks: [Task<Result<SyncResponse, SyncError>, Never>] = []
            for (id, flight) in state.flights
            where !flight.isCancelled && !flight.task.isCancelled
                && (method == nil || flight.method == method) && pathMatches(flight.path)
            {
                state.flights[id]?.isCancelled = true
                tasks.append(flight.task)
            }
            return tasks
        }
        for task in tasks { task.cancel() }
        return tasks.count
    }
}
