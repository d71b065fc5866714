public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

extension URLSession: HTTPTransport {
    /// Sends the request with `data(for:)`; cancelling the task cancels the request.
    ///
    /// Redirects follow the session's delegate: give the session a
    /// ``CrossOriginRedirectGuard`` so that credentials don't follow a redirect to another
    /// origin (`URLSession.shared` has no delegate and copies every header).
    ///
    /// ```swift
    /// let session = URLSession(configuration: .default, delegate: CrossOriginRedirectGuard(), delegateQueue: nil)
    /// let sync = RESTSync(baseURL: api, transport: session)
    /// ```
    ///
    /// On Linux, Keel keeps the request's `timeoutInterval` itself, as a limit on the whole
    /// exchange: Foundation there truncates a fractional interval (a 0.3 s limit fires at
    /// once), and a request cancelled at the moment its own timeout fires can hang for
    /// good. The task gets an interval of twice the limit and ten seconds more, which never
    /// fires first.
    ///
    /// - Parameter request: The request.
    /// - Returns: The response body and metadata.
    /// - Throws: `URLError`.
    public func send(_ request: URLRequest) async throws -> (Data, URLResponse) {
        try await withKeelTimeout(of: request) { [self] request in try await data(for: request) }
    }

    /// Sends the request and stops reading the answer once its body is over
    /// `maximumResponseBytes`.
    ///
    /// With a ``CrossOriginRedirectGuard`` as the session's delegate (as in ``RESTSync``'s
    /// default session) the answer is checked as it arrives: a `Content-Length` over the limit
    /// cancels the task before the body is read, and so does the first byte past the limit of
    /// a body without one. With another delegate, or none, the body is checked once it is
    /// all in.
    ///
    /// ```swift
    /// let (data, response) = try await session.send(URLRequest(url: url), maximumResponseBytes: 1 << 20)
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - maximumResponseBytes: The largest body to accept.
    /// - Returns: The response body and metadata.
    /// - Throws: `URLError(.dataLengthExceedsMaximum)` for a larger body; `URLError`.
    public func send(_ request: URLRequest, maximumResponseBytes: Int) async throws -> (Data, URLResponse) {
        let limit = ResponseSizeLimit(maximumResponseBytes)
        guard let redirectGuard = delegate as? CrossOriginRedirectGuard else {
            return try limit.check(await send(request))
        }
        let (sent, timeLimit) = Self.keptTimeLimit(of: request)
        return try await redirectGuard.tasks.run(
            sent,
            body: nil,
            totalBytes: 0,
            limit: limit,
            timeLimit: timeLimit,
            in: self
        ) { _ in }
    }

    /// Uploads the file as the request's body, streaming it from disk; cancelling the task
    /// cancels the upload.
    ///
    /// Progress is reported as the body is sent when the session's delegate is a
    /// ``CrossOriginRedirectGuard`` (as in ``RESTSync``'s default session); with another
    /// delegate, or none, once when the whole body is sent. The body goes with its
    /// `Content-Length` and without chunked transfer coding, as every HTTP/1.1 server reads
    /// it.
    ///
    /// ```swift
    /// let (data, response) = try await session.upload(request, fromFile: body) { print($0.fractionCompleted) }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request, without a body.
    ///   - file: The file that holds the body.
    ///   - progress: Called as the body is sent; last with all of it.
    /// - Returns: The response body and metadata.
    /// - Throws: `URLError`.
    public func upload(
        _ request: URLRequest,
        fromFile file: URL,
        progress: @escaping @Sendable (UploadProgress) -> Void
    ) async throws -> (Data, URLResponse) {
        try await upload(request, fromFile: file, maximumResponseBytes: .max, progress: progress)
    }

    /// Uploads the file as the request's body, streaming it from disk, and stops reading the
    /// answer once its body is over `maximumResponseBytes`.
    ///
    /// The answer is checked as it arrives when the session's delegate is a
    /// ``CrossOriginRedirectGuard``, otherwise once it is all in (see
    /// ``send(_:maximumResponseBytes:)``).
    ///
    /// ```swift
    /// let (data, response) = try await session.upload(request, fromFile: body, maximumResponseBytes: 1 << 20) { _ in }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request, without a body.
    ///   - file: The file that holds the body.
    ///   - maximumResponseBytes: The largest answer body to accept.
    ///   - progress: Called as the body is sent; last with all of it.
    /// - Returns: The response body and metadata.
    /// - Throws: `URLError(.dataLengthExceedsMaximum)` for a larger answer; `URLError`.
    public func upload(
        _ request: URLRequest,
        fromFile file: URL,
        maximumResponseBytes: Int,
        progress: @escaping @Sendable (UploadProgress) -> Void
    ) async throws -> (Data, URLResponse) {
        let limit = ResponseSizeLimit(maximumResponseBytes)
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber
        let totalBytes = size?.int64Value ?? 0
        if let redirectGuard = delegate as? CrossOriginRedirectGuard {
            let (sent, timeLimit) = Self.keptTimeLimit(of: request)
            return try await redirectGuard.tasks.run(
                sent,
                body: file,
                totalBytes: totalBytes,
                limit: limit,
                timeLimit: timeLimit,
                in: self,
                progress: progress
            )
        }
        return try await withKeelTimeout(of: request) { [self] request in
            let answer = try limit.check(await upload(for: request, fromFile: file))
            progress(UploadProgress(bytesSent: totalBytes, totalBytes: totalBytes))
            return answer
        }
    }

    /// The `timeoutInterval` Keel gives a task whose time limit it keeps itself (on Linux):
    /// twice the limit and ten seconds more, in whole seconds, so that Foundation's own timer
    /// cannot fire while Keel's cancels the task.
    ///
    static func backstopInterval(for limit: TimeInterval) -> TimeInterval {
        guard limit.isFinite, limit > 0 else { return limit }
        return (limit * 2 + 10).rounded(.up)
    }

    /// The request to send and the time limit Keel keeps for it, from its `timeoutInterval`:
    /// on Linux the request gets the backstop interval (see ``backstopInterval(for:)``), elsewhere
    /// it keeps its own, which `URLSession` applies to the wait for each piece of the answer
    /// while Keel's limit applies to the whole exchange.
    private static func keptTimeLimit(of request: URLRequest) -> (URLRequest, Duration?) {
        let limit = request.timeoutInterval
        guard limit.isFinite, limit > 0 else { return (request, nil) }
        var sent = request
        #if canImport(FoundationNetworking)
            sent.timeoutInterval = backstopInterval(for: limit)
        #endif
        return (sent, .milliseconds(Int64((limit * 1000).rounded(.up))))
    }

    /// Runs `exchange` with the request, under Keel's time limit on Linux (see ``send(_:)``),
    /// as it is elsewhere.
    private func withKeelTimeout(
        of request: URLRequest,
        _ exchange: @escaping @Sendable (URLRequest) async throws -> (Data, URLResponse)
    ) async throws -> (Data, URLResponse) {
        #if canImport(FoundationNetworking)
            let limit = request.timeoutInterval
            guard limit.isFinite, limit > 0 else { return try await exchange(request) }
            var backstopped = request
            backstopped.timeoutInterval = Self.backstopInterval(for: limit)
            let sent = backstopped
            return try await TimeLimit.run(within: .milliseconds(Int64((limit * 1000).rounded(.up)))) {
                try await exchange(sent)
            }
        #else
            return try await exchange(request)
        #endif
    }
}
