public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Sends one HTTP request: the seam under ``RESTSync``.
///
/// `URLSession` conforms; substitute your own to add authentication, logging or a
/// recorded transport in tests.
///
/// ```swift
/// struct Recording: HTTPTransport {
///     let sent = Mutex<[URLRequest]>([])
///     func send(_ request: URLRequest) async throws -> (Data, URLResponse) {
///         sent.withLock { $0.append(request) }
///         return (Data("{}".utf8), HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!)
///     }
/// }
/// ```
///
/// ### Implementation requirements
///
/// - Throw `URLError` for transport failures (`.cancelled` when the task is cancelled,
///   `.timedOut` on timeouts); ``RESTSync`` maps them to ``SyncError``.
/// - Return an `HTTPURLResponse` for every answer, whatever its status.
/// - ``upload(_:fromFile:progress:)`` has a default that loads the file into memory; stream
///   it instead if your transport sends large files.
/// - ``send(_:maximumResponseBytes:)`` and ``upload(_:fromFile:maximumResponseBytes:progress:)``
///   throw `URLError(.dataLengthExceedsMaximum)` for a body over the limit. Their defaults
///   check the body once the other methods return it; stop reading at the limit instead if
///   your transport may meet large or endless answers.
public protocol HTTPTransport: Sendable {
    /// Sends the request and returns the body and response.
    ///
    /// ```swift
    /// let (data, response) = try await transport.send(URLRequest(url: url))
    /// ```
    ///
    /// - Parameter request: The request.
    /// - Returns: The response body and metadata.
    /// - Throws: `URLError` when no response arrives.
    func send(_ request: URLRequest) async throws -> (Data, URLResponse)

    /// Sends the request with the file's contents as its body, reporting the bytes sent;
    /// a default implementation reads the file into memory and calls ``send(_:)``.
    ///
    /// ```swift
    /// let (data, response) = try await transport.upload(request, fromFile: body) { print($0.bytesSent) }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request, without a body.
    ///   - file: The file that holds the body.
    ///   - progress: Called as the body is sent; last with all of it.
    /// - Returns: The response body and metadata.
    /// - Throws: `URLError` when no response arrives.
    func upload(
        _ request: URLRequest,
        fromFile file: URL,
        progress: @escaping @Sendable (UploadProgress) -> Void
    ) async throws -> (Data, URLResponse)

    /// Sends the request and returns the body and response, failing once the body is larger
    /// than `maximumResponseBytes`; ``RESTSync`` calls it for every request without a staged
    /// body.
    ///
    /// ```swift
    /// let (data, response) = try await transport.send(URLRequest(url: url), maximumResponseBytes: 1 << 20)
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - maximumResponseBytes: The largest body to accept.
    /// - Returns: The response body and metadata.
    /// - Throws: `URLError(.dataLengthExceedsMaximum)` for a larger body; `URLError` when no
    ///   response arrives.
    func send(_ request: URLRequest, maximumResponseBytes: Int) async throws -> (Data, URLResponse)

    /// Sends the request with the file's contents as its body, failing once the answer's body
    /// is larger than `maximumResponseBytes`; ``RESTSync`` calls it for every staged body.
    ///
    /// ```swift
    /// let (data, response) = try await transport.upload(request, fromFile: body, maximumResponseBytes: 1 << 20) { _ in }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request, without a body.
    ///   - file: The file that holds the body.
    ///   - maximumResponseBytes: The largest answer body to accept.
    ///   - progress: Called as the body is sent; last with all of it.
    /// - Returns: The response body and metadata.
    /// - Throws: `URLError(.dataLengthExceedsMaximum)` for a larger answer; `URLError` when no
    ///   response arrives.
    func upload(
        _ request: URLRequest,
        fromFile file: URL,
        maximumResponseBytes: Int,
        progress: @escaping @Sendable (UploadProgress) -> Void
    ) async throws -> (Data, URLResponse)
}

extension HTTPTransport {
    /// Sends the request with the file's contents as its body, reporting the bytes sent.
    ///
    /// ``RESTSync`` calls it for multipart forms, and for any body when a call tracks its
    /// upload progress; the file is a temporary one that it deletes afterwards. This default
    /// reads the file into memory, sends it with ``send(_:)`` and reports the whole body as
    /// sent once the answer is in. Implement it to stream the file and report progress as it
    /// goes, as `URLSession` does.
    ///
    /// ```swift
    /// let (data, response) = try await transport.upload(request, fromFile: body) { print($0.fractionCompleted) }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request, without a body.
    ///   - file: The file that holds the body.
    ///   - progress: Called as the body is sent; last with all of it.
    /// - Returns: The response body and metadata.
    /// - Throws: `URLError` when no response arrives; the file's read error.
    public func upload(
        _ request: URLRequest,
        fromFile file: URL,
        progress: @escaping @Sendable (UploadProgress) -> Void
    ) async throws -> (Data, URLResponse) {
        var request = request
        let body = try Data(contentsOf: file, options: .mappedIfSafe)
        request.httpBody = body
        let answer = try await send(request)
        progress(UploadProgress(bytesSent: Int64(body.count), totalBytes: Int64(body.count)))
        return answer
    }

    /// Sends the request with ``send(_:)``, then refuses a body larger than
    /// `maximumResponseBytes`, or whose `Content-Length` says so.
    ///
    /// The whole body is in memory before it is checked; implement this method to stop
    /// reading at the limit, as `URLSession` does.
    ///
    /// ```swift
    /// let (data, response) = try await transport.send(URLRequest(url: url), maximumResponseBytes: 1 << 20)
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - maximumResponseBytes: The largest body to accept.
    /// - Returns: The response body and metadata.
    /// - Throws: `URLError(.dataLengthExceedsMaximum)` for a larger body; what ``send(_:)`` throws.
    public func send(_ request: URLRequest, maximumResponseBytes: Int) async throws -> (Data, URLResponse) {
        try ResponseSizeLimit(maximumResponseBytes).check(await send(request))
    }

    /// Uploads with ``upload(_:fromFile:progress:)``, then refuses an answer larger than
    /// `maximumResponseBytes`, or whose `Content-Length` says so.
    ///
    /// The whole answer is in memory before it is checked; implement this method to stop
    /// reading at the limit, as `URLSession` does.
    ///
    /// ```swift
    /// let (data, response) = try await transport.upload(request, fromFile: body, maximumResponseBytes: 1 << 20) { _ in }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request, without a body.
    ///   - file: The file that holds the body.
    ///   - maximumResponseBytes: The largest answer body to accept.
    ///   - progress: Called as the body is sent; last with all of it.
    /// - Returns: The response body and metadata.
    /// - Throws: `URLError(.dataLengthExceedsMaximum)` for a larger answer; what
    ///   ``upload(_:fromFile:progress:)`` throws.
    public func upload(
        _ request: URLRequest,
        fromFile file: URL,
        maximumResponseBytes: Int,
        progress: @escaping @Sendable (UploadProgress) -> Void
    ) async throws -> (Data, URLResponse) {
        try ResponseSizeLimit(maximumResponseBytes).check(await upload(request, fromFile: file, progress: progress))
    }
}
