public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the Django and Rails test servers have in common: a base URL on 127.0.0.1, paths
/// under it, and `POST /__reset`.
///
///     let notes = try await TestServer.shared.url("notes")
public protocol LoopbackTestServer: Sendable {
    /// `http://127.0.0.1:PORT/`
    var baseURL: URL { get }
}

extension LoopbackTestServer {
    /// `baseURL` + `path` (a path relative to the root, such as `"notes/1"`; a leading `/` is
    /// ignored).
    ///
    /// Percent-encode ids yourself.
    ///
    ///     let url = server.url("users/1/invites")
    public func url(_ path: String) -> URL {
        let relative = path.hasPrefix("/") ? String(path.dropFirst()) : path
        return URL(string: relative, relativeTo: baseURL)!.absoluteURL
    }

    /// `POST /__reset`: deletes every record of the server's own resources.
    ///
    /// The shared server is used by tests running in parallel: prefer creating your own records
    /// over resetting.
    ///
    ///     try await TestServer.dedicated(to: "MySuite").reset()
    ///
    /// - Throws: ``TestServer/Failure`` when the server does not answer 204.
    public func reset() async throws {
        var request = URLRequest(url: url("__reset"))
        request.httpMethod = "POST"
        let (_, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 204 else {
            throw TestServer.Failure(description: "POST /__reset failed: \(response)")
        }
    }
}
