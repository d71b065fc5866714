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
