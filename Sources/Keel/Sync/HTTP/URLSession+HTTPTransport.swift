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

    /// Uploads the file as the request's body, streaming it from disk; cancelling the task
    /// cancels the upload.
    ///
    /// Progress is reported as the body is sent when the session's delegate is a
    /// ``CrossOriginRedirectGuard`` (as in ``RESTSync``'s default session); with another
    /// delegate, or none, once when the whole body is sent.
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
        var request = request
        #if canImport(FoundationNetworking)
            request.timeoutInterval = request.timeoutInterval.rounded(.up)
        #endif
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber
        let totalBytes = size?.int64Value ?? 0
        if let redirectGuard = delegate as? CrossOriginRedirectGuard {
            return try await redirectGuard.uploads.run(
                request,
                fromFile: file,
                totalBytes: totalBytes,
                in: self,
                progress: progress
            )
        }
        let answer = try await upload(for: request, fromFile: file)
        progress(UploadProgress(bytesSent: totalBytes, totalBytes: totalBytes))
        return answer
    }
}
