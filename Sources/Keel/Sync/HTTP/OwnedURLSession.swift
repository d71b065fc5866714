import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default transport of a ``RESTSync``: an ephemeral `URLSession` whose delegate is a
/// ``CrossOriginRedirectGuard``, invalidated when the last copy of the `RESTSync` that made
/// it is gone.
///
/// A `URLSession` keeps itself, its delegate and (on Linux) its connection handles alive
/// until it is invalidated, so a session per `RESTSync` that nobody invalidates would stay
/// for the life of the process. Requests in flight when the last copy goes still finish.
final class OwnedURLSession: HTTPTransport {
    /// The session that sends the requests.
    let session: URLSession

    /// A new ephemeral session with a ``CrossOriginRedirectGuard``.
    init() {
        session = URLSession(configuration: .ephemeral, delegate: CrossOriginRedirectGuard(), delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    func send(_ request: URLRequest) async throws -> (Data, URLResponse) {
        try await session.send(request)
    }

    func upload(
        _ request: URLRequest,
        fromFile file: URL,
        progress: @escaping @Sendable (UploadProgress) -> Void
    ) async throws -> (Data, URLResponse) {
        try await session.upload(request, fromFile: file, progress: progress)
    }

    func send(_ request: URLRequest, maximumResponseBytes: Int) async throws -> (Data, URLResponse) {
        try await session.send(request, maximumResponseBytes: maximumResponseBytes)
    }

    func upload(
        _ request: URLRequest,
        fromFile file: URL,
        maximumResponseBytes: Int,
        progress: @escaping @Sendable (UploadProgress) -> Void
    ) async throws -> (Data, URLResponse) {
        try await session.upload(
            request,
            fromFile: file,
            maximumResponseBytes: maximumResponseBytes,
            progress: progress
        )
    }
}
