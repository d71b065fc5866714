/// Work in flight shared by every caller that asks for the same key, with waits that each
/// caller can cancel on its own.
///
/// The first caller for a key starts the work in an unstructured task; callers that come
/// while it runs wait for the same outcome. Cancelling one caller ends its wait at once with
/// ``SyncError/cancelled`` and leaves the work running for the others; when every caller has
/// cancelled, the work's task is cancelled too. A caller that comes after the work has
/// finished starts it again.
///
/// ```swift
/// let reads = SharedFlights<URL, SyncResponse>()
/// let response = try await reads.outcome(for: url) { await send(url) }.get()
/// ```
final class SharedFlights<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    typealias Outcome = Result<Value, SyncError>

    /// One piece of work in flight and the callers waiting for it.
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

    /// How many callers wait now, over all keys.
    var waitingCount: Int {
        state.withLock { $0.flights.values.reduce(0) { $0 + $1.waiters.count } }
    }

    /// Whether work for `key` is in flight now.
    func isInFlight(_ key: Key) -> Bool {
        state.withLock { $0.flights[key] != nil }
    }

    /// The outcome of the work for `key`: the one in flight, or `work` started now.
    ///
    /// - Parameters:
    ///   - key: What makes two callers' work the same.
    ///   - work: The work, run in an unstructured task when nothing is in flight for `key`.
    /// - Returns: The work's outcome, or ``SyncError/cancelled`` when this caller's task is
    ///   cancelled first.
    func outcome(for key: Key, work: @escaping @Sendable () async -> Outcome) async -> Outcome {
        let waiter = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                join(key, waiter: waiter, continuation: continuation, work: work)
            }
        } onCancel: {
            leave(key, waiter: waiter)
        }
        // A cancellation that came after the outcome left a mark; clear it.
        state.withLock { _ = $0.cancelled.remove(waiter) }
        return outcome
    }

    /// Adds a caller to the flight for `key`, starting the flight if there is none.
    private func join(
        _ key: Key,
        waiter: UInt64,
        continuation: CheckedContinuation<Outcome, Never>,
        work: @escaping @Sendable () async -> Outcome
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
            // An unstructured task: cancelling the caller that started it must not cancel it.
            flight.task = Task { self.land(key, flight: id, with: await work()) }
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
