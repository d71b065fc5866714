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
public final class DeduplicatingSync: Sync {
    /// The backend that sends the requests.
    public let base: any Sync

    private typealias Outcome = Result<SyncResponse, SyncError>

    /// What makes two reads the same.
    private struct Key: Hashable {
        let url: URL
        let query: [URLQueryItem]
        let headers: [String: String]
        let timeout: Duration?
    }

    /// One request in flight and the callers waiting for it.
    private struct Flight {
        let id: UInt64
        var task: Task<Void, Never>?
        var waiters: [UInt64: CheckedContinuation<Outcome, Never>] = [:]
    }

    private struct State {
        var flights: [Key: Flight] = [:]
        var nextID: UInt64 = 0
        /// Callers cancelled before they started waiting.
        var cancelled: Set<UInt64> = []
    }

    private let state = Lock(State())

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
        let waiter = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                join(key, request: request, waiter: waiter, continuation: continuation)
            }
        } onCancel: {
            leave(key, waiter: waiter)
        }
        // A cancellation that came after the answer left a mark; clear it.
        state.withLock { _ = $0.cancelled.remove(waiter) }
        return try outcome.get()
    }

    /// How many callers wait for a shared request now.
    var waitingCount: Int {
        state.withLock { $0.flights.values.reduce(0) { $0 + $1.waiters.count } }
    }

    // MARK: - Flights

    /// Adds a caller to the flight for `key`, starting the flight if there is none.
    private func join(
        _ key: Key,
        request: SyncRequest,
        waiter: UInt64,
        continuation: CheckedContinuation<Outcome, Never>
    ) {
        let joined: Bool = state.withLock { state in
            if state.cancelled.remove(waiter) != nil { return false }
            if state.flights[key] != nil {
                state.flights[key]?.waiters[waiter] = continuation
                return true
            }
            state.nextID += 1
            let id = state.nextID
            var flight = Flight(id: id)
            flight.waiters[waiter] = continuation
            let base = self.base
            // An unstructured task: cancelling the caller that started it must not cancel it.
            flight.task = Task {
                let outcome: Outcome
                do throws(SyncError) {
                    outcome = .success(try await base.perform(request))
                } catch {
                    outcome = .failure(error)
                }
                self.land(key, flight: id, with: outcome)
            }
            state.flights[key] = flight
            return true
        }
        if !joined { continuation.resume(returning: .failure(.cancelled)) }
    }

    /// Hands the outcome of a flight to everyone still waiting for it.
    private func land(_ key: Key, flight id: UInt64, with outcome: Outcome) {
        let waiters: [CheckedContinuation<Outcome, Never>] = state.withLock { state in
            guard let flight = state.flights[key], flight.id == id else { return [] }
            state.flights[key] = nil
            return Array(flight.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    /// Ends one caller's wait; cancels the flight when nobody else waits for it.
    private func leave(_ key: Key, waiter: UInt64) {
        let (continuation, orphan): (CheckedContinuation<Outcome, Never>?, Task<Void, Never>?) = state.withLock {
            state in
            guard var flight = state.flights[key], let continuation = flight.waiters.removeValue(forKey: waiter)
            else {
                state.cancelled.insert(waiter)
                return (nil, nil)
            }
            if flight.waiters.isEmpty {
                state.flights[key] = nil
                return (continuation, flight.task)
            }
            state.flights[key] = flight
            return (continuation, nil)
        }
        orphan?.cancel()
        continuation?.resume(returning: .failure(.cancelled))
    }
}
