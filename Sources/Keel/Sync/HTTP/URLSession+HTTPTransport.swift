public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

extension URLSession: HTTPTransport {
    /// Sends the request with `data(for:)`; cancelling the task cancels the request.
    ///
    /// ```swift
    /// let sync = RESTSync(baseURL: api, transport: URLSession.shared)
    /// ```
    ///
    /// - Parameter request: The request.
    /// - Returns: The response body and metadata.
    /// - Throws: `URLError`.
    public func send(_ request: URLRequest) async throws -> (Data, URLResponse) {
        try await data(for: request)
    }
}
