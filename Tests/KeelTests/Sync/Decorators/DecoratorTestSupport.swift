import Foundation

@testable import Keel

/// A ``Sync`` double that answers each request with the next scripted outcome (the last one
/// repeats), recording every request; a scripted failing response is recorded as a
/// ``RESTSync`` would record it, so decorators see its headers.
final class SequenceSync: Sync {
    enum Step: Sendable {
        case respond(SyncResponse)
        case fail(SyncError)
        /// A non-success answer with headers, thrown as ``RESTSync`` throws it.
        case failing(SyncResponse)
    }

    private let steps: [Step]
    private let recorded = Lock<[SyncRequest]>([])

    init(_ steps: [Step]) {
        precondition(!steps.isEmpty)
        self.steps = steps
    }

    var requests: [SyncRequest] { recorded.withLock { $0 } }
    var count: Int { recorded.withLock { $0.count } }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        let index = recorded.withLock { requests in
            requests.append(request)
            return requests.count - 1
        }
        switch steps[min(index, steps.count - 1)] {
        case .respond(let response): return response
        case .fail(let error): throw error
        case .failing(let response):
            FailedResponseRecorder.record(response)
            throw SyncError(failing: response)
        }
    }
}

/// Records the delays a decorator asks to wait, and returns at once.
final class RecordedSleeps: Sendable {
    private let delays = Lock<[Duration]>([])

    var all: [Duration] { delays.withLock { $0 } }

    var sleep: @Sendable (Duration) async throws -> Void {
        { [delays] duration in delays.withLock { $0.append(duration) } }
    }
}

enum DecoratorFixture {
    static func read(_ path: String, query: [URLQueryItem] = [], headers: [String: String] = [:]) -> SyncRequest {
        SyncRequest(method: .read, url: SyncFixture.url(path), query: query, headers: headers)
    }

    static func request(_ method: SyncMethod, _ path: String, context: JSONObject = [:]) -> SyncRequest {
        SyncRequest(method: method, url: SyncFixture.url(path), context: context)
    }
}

/// A backend that counts requests and holds each one until the test opens the gate (or the
/// request's task is cancelled).
final class HeldSync: Sync {
    private struct State {
        var count = 0
        var cancelledCount = 0
        var inFlight = 0
        var maxInFlight = 0
        var opened = false
        var waiting: [UInt64: CheckedContinuation<Bool, Never>] = [:]
        var nextID: UInt64 = 0
        var paths: [String] = []
    }

    private let state = Lock(State())
    private let answer: Result<SyncResponse, SyncError>

    init(_ answer: Result<SyncResponse, SyncError> = .success(SyncResponse(body: ["id": 1]))) {
        self.answer = answer
    }

    var count: Int { state.withLock { $0.count } }
    var cancelledCount: Int { state.withLock { $0.cancelledCount } }
    /// The most requests held or answered at the same time.
    var maxInFlight: Int { state.withLock { $0.maxInFlight } }
    /// The paths of the requests received, in order.
    var paths: [String] { state.withLock { $0.paths } }

    func open() {
        let waiting = state.withLock { state in
            state.opened = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.resume(returning: true) }
    }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        let id = state.withLock { state in
            state.count += 1
            state.inFlight += 1
            state.maxInFlight = max(state.maxInFlight, state.inFlight)
            state.paths.append(request.path)
            state.nextID += 1
            return state.nextID
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        let opened = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let resumeNow: Bool? = state.withLock { state in
                    if state.opened { return true }
                    if Task.isCancelled { return false }
                    state.waiting[id] = continuation
                    return nil
                }
                if let resumeNow { continuation.resume(returning: resumeNow) }
            }
        } onCancel: {
            let continuation = state.withLock { $0.waiting.removeValue(forKey: id) }
            continuation?.resume(returning: false)
        }
        guard opened else {
            state.withLock { $0.cancelledCount += 1 }
            throw .cancelled
        }
        return try answer.get()
    }
}
