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
    /// On Linux, Foundation truncates a fractional `timeoutInterval` (a 0.3 s limit fires at
    /// once), so the interval is rounded up to whole seconds there; ``RESTSync`` keeps the
    /// exact limit itself.
    ///
    /// - Parameter request: The request.
    /// - Returns: The response body and metadata.
    /// - Throws: `URLError`.
    public func send(_ request: URLRequest) async throws -> (Data, URLResponse) {
        #if canImport(FoundationNetworking)
            var request = request
            request.timeoutInterval = request.timeoutInterval.rounded(.up)
        #endif
        return try await data(for: request)
    }
}
