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
}
