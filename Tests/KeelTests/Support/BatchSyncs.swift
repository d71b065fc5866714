import Keel

/// A backend that holds each request until `width` requests are in flight together (or every
/// expected request has started), and records the most that were ever in flight at once.
///
/// A batch that sends one request at a time never releases its first request, so a test of
/// concurrency fails by its time limit instead of by a timing assertion.
final class BatchOverlapSync: Sync {
    private struct State {
        var inFlight = 0
        var started = 0
        var peak = 0
        var held: [CheckedContinuation<Void, Never>] = []
        var requests: [SyncRequest] = []
    }

    private let state = Lock(State())
    private let width: Int
    private let expected: Int
    private let answer: @Sendable (SyncRequest) throws(SyncError) -> SyncResponse

    init(
        width: Int,
        expected: Int,
        answer: @escaping @Sendable (SyncRequest) throws(SyncError) -> SyncResponse
    ) {
        self.width = width
        self.expected = expected
        self.answer = answer
    }

    /// The most requests in flight at once so far.
    var peak: Int { state.withLock { $0.peak } }

    /// Every request performed so far, in the order they arrived.
    var requests: [SyncRequest] { state.withLock { $0.requests } }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let released = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.inFlight += 1
                state.started += 1
                state.peak = max(state.peak, state.inFlight)
                state.requests.append(request)
                state.held.append(continuation)
                guard state.inFlight >= width || state.started >= expected else { return [] }
                defer { state.held = [] }
                return state.held
            }
            for waiting in released { waiting.resume() }
        }
        state.withLock { $0.inFlight -= 1 }
        return try answer(request)
    }
}

/// A backend that holds every request until the test opens it, and tells the test as each
/// request arrives.
final class BatchGateSync: Sync {
    private struct State {
        var isOpen = false
        var held: [CheckedContinuation<Void, Never>] = []
        var requests: [SyncRequest] = []
    }

    private let state = Lock(State())
    private let arrivals: AsyncStream<Int>.Continuation
    /// The number of requests received so far, yielded as each one arrives.
    let arrived: AsyncStream<Int>

    init() {
        (arrived, arrivals) = AsyncStream.makeStream()
    }

    /// Every request performed so far, in the order they arrived.
    var requests: [SyncRequest] { state.withLock { $0.requests } }

    /// Lets every held request and every later one through.
    func open() {
        let held = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isOpen = true
            defer { state.held = [] }
            return state.held
        }
        for waiting in held { waiting.resume() }
    }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (isOpen, count) = state.withLock { state in
                state.requests.append(request)
                if !state.isOpen { state.held.append(continuation) }
                return (state.isOpen, state.requests.count)
            }
            arrivals.yield(count)
            if isOpen { continuation.resume() }
        }
        return SyncResponse(status: 200, body: ["id": .int(state.withLock { $0.requests.count }), "seen": true])
    }
}
