/// A decorator that lets at most a given number of requests run at once; the others wait
/// their turn, first come first served.
///
/// ```swift
/// let api = ConcurrencyLimitedSync(RESTSync(baseURL: URL(string: "https://api.example.com")!), limit: 4)
/// let notes = Collection<Note>(url: "/notes", sync: api)
/// try await notes.fetch()
/// ```
///
/// A caller cancelled while it waits stops waiting at once with ``SyncError/cancelled``, and
/// its request is never sent.
public final class ConcurrencyLimitedSync: SyncDecorator {
    /// The backend that sends the requests.
    public let base: any Sync
    /// How many requests may run at once.
    public let limit: Int

    private struct State {
        var running = 0
        var queue: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
        var nextID: UInt64 = 0
        /// Callers cancelled before they joined the queue.
        var cancelled: Set<UInt64> = []
    }

    private let state = Lock(State())

    /// Creates a decorator that limits how many requests run at once.
    ///
    /// ```swift
    /// let api = ConcurrencyLimitedSync(rest, limit: 2)
    /// ```
    ///
    /// - Parameters:
    ///   - base: The backend that sends the requests.
    ///   - limit: How many requests may run at once (at least 1).
    public init(_ base: any Sync, limit: Int) {
        self.base = base
        self.limit = max(1, limit)
    }

    /// How many requests run now.
    ///
    /// ```swift
    /// api.runningCount  // 0 when idle
    /// ```
    public var runningCount: Int { state.withLock { $0.running } }

    /// How many requests wait for their turn now.
    ///
    /// ```swift
    /// api.waitingCount  // 0 when fewer than `limit` run
    /// ```
    public var waitingCount: Int { state.withLock { $0.queue.count } }

    /// Waits for a free slot, then sends the request.
    ///
    /// ```swift
    /// let response = try await api.perform(SyncRequest(method: .read, url: URL(string: "/notes")!))
    /// ```
    ///
    /// - Parameter request: The operation.
    /// - Returns: The base's response.
    /// - Throws: The base's ``SyncError``, or ``SyncError/cancelled`` when the task is cancelled
    ///   while waiting.
    /// - Complexity: O(*w*) to give up a wait, where *w* is the number of waiting requests.
    public func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        guard await acquire() else { throw .cancelled }
        defer { release() }
        return try await base.perform(request)
    }

    // MARK: - Slots

    /// Takes a slot, waiting for one if none is free; `false` when cancelled meanwhile.
    private func acquire() async -> Bool {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let limit = self.limit
        let acquired = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let immediate: Bool? = state.withLock { state in
                    if state.cancelled.remove(id) != nil { return false }
                    if state.running < limit {
                        state.running += 1
                        return true
                    }
                    state.queue.append((id, continuation))
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiting: CheckedContinuation<Bool, Never>? = state.withLock { state in
                guard let index = state.queue.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.queue.remove(at: index).continuation
            }
            waiting?.resume(returning: false)
        }
        // A cancellation that came after the slot was given left a mark; clear it.
        state.withLock { _ = $0.cancelled.remove(id) }
        return acquired
    }

    /// Hands the slot to the first waiting request, or frees it.
    private func release() {
        let next: CheckedContinuation<Bool, Never>? = state.withLock { state in
            if state.queue.isEmpty {
                state.running -= 1
                return nil
            }
            return state.queue.removeFirst().continuation
        }
        next?.resume(returning: true)
    }
}
