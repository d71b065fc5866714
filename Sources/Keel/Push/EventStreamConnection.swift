import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One connection to a `text/event-stream`: a `URLSession` data task whose bytes are parsed
/// as they arrive, and a watchdog that ends the connection when nothing at all (not even a
/// heartbeat comment) arrived for the read timeout.
///
/// Redirects follow ``CrossOriginRedirectGuard``'s rule: credentials never go to another origin.
final class EventStreamConnection: NSObject, URLSessionDataDelegate, Sendable {
    /// Why a connection ended without the server closing it cleanly.
    enum Failure: Error {
        /// The server answered but not with a stream: a status other than 200, or another
        /// `Content-Type`.
        case refused(status: Int, contentType: String?)
        /// Nothing arrived for the read timeout.
        case quiet
    }

    private struct State {
        var parser: EventStreamParser
        var lastReceived = ContinuousClock.now
        var continuation: AsyncThrowingStream<[ServerSentEvent], any Error>.Continuation?
        var failure: (any Error)?
    }

    private let state: Lock<State>
    private let readTimeout: Duration

    /// A week: `URLSession`'s own limits, kept out of the way of the read timeout (an
    /// infinite interval would overflow swift-corelibs-foundation's conversion to milliseconds).
    static let noTimeLimit: TimeInterval = 7 * 24 * 60 * 60

    private init(lastEventID: String?, readTimeout: Duration) {
        state = Lock(State(parser: EventStreamParser(lastEventID: lastEventID)))
        self.readTimeout = readTimeout
    }

    /// The reconnection time the stream asked for with `retry:`, in milliseconds.
    var retry: Int? { state.withLock { $0.parser.retry } }

    /// Opens the stream; its events arrive, those of one read from the connection together
    /// (never an empty batch), until the server ends it (the stream finishes),
    /// the connection fails or stays quiet for `readTimeout` (the stream throws), or the
    /// consumer stops.
    static func open(
        _ request: URLRequest,
        lastEventID: String?,
        readTimeout: Duration
    ) -> (EventStreamConnection, AsyncThrowingStream<[ServerSentEvent], any Error>) {
        let connection = EventStreamConnection(lastEventID: lastEventID, readTimeout: readTimeout)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = Self.noTimeLimit
        configuration.timeoutIntervalForResource = Self.noTimeLimit
        let session = URLSession(configuration: configuration, delegate: connection, delegateQueue: nil)
        let events = AsyncThrowingStream<[ServerSentEvent], any Error> { continuation in
            connection.state.withLock { $0.continuation = continuation }
            let task = session.dataTask(with: request)
            let watchdog = Task { await connection.watch(task) }
            continuation.onTermination = { _ in
                watchdog.cancel()
                task.cancel()
                session.finishTasksAndInvalidate()
            }
            task.resume()
        }
        return (connection, events)
    }

    /// Cancels the task once nothing arrived for the read timeout.
    private func watch(_ task: URLSessionTask) async {
        while !Task.isCancelled {
            let deadline = state.withLock { $0.lastReceived } + readTimeout
            if ContinuousClock.now >= deadline {
                state.withLock { $0.failure = $0.failure ?? Failure.quiet }
                task.cancel()
                return
            }
            try? await Task.sleep(until: deadline, clock: .continuous)
        }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(CrossOriginRedirectGuard.redirected(request, from: response.url ?? task.currentRequest?.url))
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        let status = http?.statusCode ?? 0
        let contentType = http?.value(forHTTPHeaderField: "Content-Type")
        let isStream = contentType?.lowercased().hasPrefix("text/event-stream") ?? false
        guard status == 200, isStream else {
            state.withLock { $0.failure = Failure.refused(status: status, contentType: contentType) }
            completionHandler(.cancel)
            return
        }
        state.withLock { $0.lastReceived = .now }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let (events, continuation) = state.withLock { state in
            state.lastReceived = .now
            return (state.parser.feed(data), state.continuation)
        }
        if !events.isEmpty { continuation?.yield(events) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, failure) = state.withLock { state in
            defer { state.continuation = nil }
            return (state.continuation, state.failure ?? error)
        }
        continuation?.finish(throwing: failure)
    }
}
