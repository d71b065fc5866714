/// The results of a ``LiveQuery`` as an asynchronous sequence: the current results first,
/// then the results after each burst of changes.
///
/// Changes are coalesced: however many arrive before the iterator asks again, it gets one
/// snapshot, read when it asks. Iterate it on the query's isolation (the query, like its
/// models, is not `Sendable`); the sequence keeps the query alive and ends when the
/// iterating task is cancelled.
///
/// ```swift
/// Task { @MainActor in
///     for await todos in open.snapshots { render(todos) }
/// }
/// ```
public struct QuerySnapshots<M: Model>: AsyncSequence {
    /// A snapshot: the query's results at one moment.
    public typealias Element = [M]
    /// The sequence never throws.
    public typealias Failure = Never

    let query: LiveQuery<M>

    /// Creates the iterator.
    ///
    /// ```swift
    /// var iterator = open.snapshots.makeAsyncIterator()
    /// ```
    public func makeAsyncIterator() -> Iterator { Iterator(query: query) }

    /// The iterator of ``QuerySnapshots``.
    public struct Iterator: AsyncIteratorProtocol {
        let query: LiveQuery<M>
        /// The version of the results last delivered; `nil` before the first snapshot.
        var delivered: UInt64?

        /// Waits until the results differ from the last snapshot, then returns them; `nil`
        /// when the task is cancelled.
        ///
        /// ```swift
        /// let todos = await iterator.next()
        /// ```
        public mutating func next() async -> [M]? {
            if let delivered {
                guard await query.signal.wait(after: delivered) else { return nil }
            }
            delivered = query.signal.version
            return query.models
        }

        /// Waits for the next snapshot on the caller's isolation.
        ///
        /// ```swift
        /// let todos = await iterator.next(isolation: #isolation)
        /// ```
        ///
        /// - Parameter actor: The caller's isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> [M]? {
            await next()
        }
    }
}

extension LiveQuery {
    /// The results as an asynchronous sequence of coalesced snapshots.
    ///
    /// ```swift
    /// for await todos in open.snapshots { print(todos.count) }
    /// ```
    public var snapshots: QuerySnapshots<M> { QuerySnapshots(query: self) }
}

/// Counts changes of a query's results and wakes the iterators waiting for one; the lock
/// guards against the cancellation handler, which may run anywhere.
final class SnapshotSignal: Sendable {
    private struct State {
        var version: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Lock(State())

    /// How many times the results have changed.
    var version: UInt64 { state.withLock { $0.version } }

    /// Records a change and wakes every waiting iterator.
    func signal() {
        let waiters = state.withLock { state in
            state.version += 1
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: true) }
    }

    /// Waits until the version is past `version`; `false` when the task is cancelled.
    func wait(after version: UInt64) async -> Bool {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let ready: Bool? = state.withLock { state in
                    if Task.isCancelled { return false }
                    if state.version > version { return true }
                    state.waiters[id] = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(returning: false)
        }
    }
}
