public import Foundation

/// A decorator that signs requests with a bearer token from your code, and gets a new token
/// once when the server answers `401 Unauthorized`.
///
/// The token provider is called with `nil` for the first token, and with the token the
/// server refused when a request comes back 401; then that request is sent once more with
/// the new token. Concurrent requests that fail together share one refresh, and requests
/// that start while it runs wait for it. A caller whose task is cancelled stops waiting at
/// once with ``SyncError/cancelled``; the refresh goes on for the others, and is cancelled
/// when nobody waits for it any more.
///
/// ```swift
/// let api = TokenAuthSync(rest, baseURL: URL(string: "https://api.example.com")!) { refused in
///     try await session.accessToken(refreshing: refused != nil)
/// }
/// let notes = Collection<Note>(url: "/notes", sync: api)
/// try await notes.fetch()   // Authorization: Bearer <token>
/// ```
///
/// ### Where the token goes
///
/// Only to the origin (scheme, host and port) of ``baseURL``. A relative URL is resolved
/// against ``baseURL`` here, before the request reaches the backend, so it goes to that origin
/// whatever base URL the backend has: give both the same base URL. A request whose URL is
/// absolute and has another origin goes without the token. A request that sets its own
/// `Authorization` header keeps it and is passed on as it is.
///
/// A token with a line break or another control character but a tab cannot be sent in a
/// header: the request then throws ``SyncError/invalidHeader(name:reason:)`` (which never
/// holds the token), nothing is sent, and the token is not kept, so the next request asks the
/// provider again. The same holds for a ``scheme`` that is not an RFC 9110 token.
///
/// For HTTP basic authentication, use ``basic(_:baseURL:user:password:)``.
public final class TokenAuthSync: SyncDecorator {
    /// Gives a token: the current one for `nil`, a new one when passed the refused token.
    public typealias TokenProvider = @Sendable (_ refusedToken: String?) async throws -> String

    /// The backend that sends the requests.
    public let base: any Sync
    /// The URL that relative request URLs are resolved against; its origin is the only one
    /// that receives the token.
    public let baseURL: URL
    /// The authorization scheme written before the token (`Bearer`).
    public let scheme: String

    private let provider: TokenProvider

    /// The token given last.
    private let current = Lock<String?>(nil)
    /// The provider's call in flight, shared by the callers that need a token meanwhile.
    private let refreshes = SharedFlights<Int, String>()

    /// Creates a decorator that sends a bearer token.
    ///
    /// ```swift
    /// let api = TokenAuthSync(rest, baseURL: site) { _ in try await keychain.token() }
    /// ```
    ///
    /// - Parameters:
    ///   - base: The backend that sends the requests.
    ///   - baseURL: The URL that relative request URLs are resolved against, and whose origin
    ///     alone receives the token: the backend's base URL.
    ///   - scheme: The authorization scheme (`Bearer`, or `Token` for Django REST framework's
    ///     `TokenAuthentication`).
    ///   - token: Gives a token; it is passed the refused token when one is refused. An error
    ///     it throws fails the request: a ``SyncError`` as it is, `CancellationError` as
    ///     ``SyncError/cancelled``, any other as ``SyncError/transport(_:)``.
    public init(_ base: any Sync, baseURL: URL, scheme: String = "Bearer", token: @escaping TokenProvider) {
        self.base = base
        self.baseURL = baseURL
        self.scheme = scheme
        self.provider = token
    }

    /// Creates a decorator that sends HTTP basic credentials to the origin of `baseURL`.
    ///
    /// ```swift
    /// let api = TokenAuthSync.basic(rest, baseURL: site, user: "ann", password: password)
    /// ```
    ///
    /// - Parameters:
    ///   - base: The backend that sends the requests.
    ///   - baseURL: The URL that relative request URLs are resolved against, and whose origin
    ///     alone receives the credentials.
    ///   - user: The user name; it must not contain a colon.
    ///   - password: The password.
    /// - Returns: A decorator that sends `Authorization: Basic <base64(user:password)>`.
    public static func basic(_ base: any Sync, baseURL: URL, user: String, password: String) -> TokenAuthSync {
        let credentials = Data("\(user):\(password)".utf8).base64EncodedString()
        return TokenAuthSync(base, baseURL: baseURL, scheme: "Basic") { _ in credentials }
    }

    /// Sends the request with the token; on a 401, gets a new token and sends it once more.
    ///
    /// ```swift
    /// let response = try await api.perform(SyncRequest(method: .read, url: URL(string: "/me")!))
    /// ```
    ///
    /// - Parameter request: The operation.
    /// - Returns: The response.
    /// - Throws: ``SyncError``: the second 401 as ``SyncError/httpStatus(_:body:)``, the
    ///   provider's error, or ``SyncError/invalidHeader(name:reason:)`` for a token or scheme
    ///   that cannot be sent in a header.
    public func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        if request.headers.keys.contains(where: { $0.lowercased() == "authorization" }) {
            return try await base.perform(request)
        }
        var request = request
        if request.url.scheme == nil {
            request.url = try URLPath.resolve(request.url.relativeString, against: baseURL)
        }
        guard HTTPOrigin.same(request.url, baseURL) else { return try await base.perform(request) }
        if !HTTPHeaderSyntax.isToken(scheme) {
            throw .invalidHeader(name: "Authorization", reason: "the scheme \(scheme.debugDescription) is not a token")
        }
        let token = try await self.token(replacing: nil)
        do {
            return try await base.perform(signed(request, with: token))
        } catch .httpStatus(401, _) {
            let fresh = try await self.token(replacing: token)
            return try await base.perform(signed(request, with: fresh))
        }
    }

    // MARK: - Helpers

    private func signed(_ request: SyncRequest, with token: String) -> SyncRequest {
        var request = request
        request.headers["Authorization"] = "\(scheme) \(token)"
        return request
    }

    /// The current token, or a new one when `refused` is the current one; callers at the same
    /// time share one call of the provider, and each can stop waiting when its task is
    /// cancelled.
    private func token(replacing refused: String?) async throws(SyncError) -> String {
        if !refreshes.isInFlight(0), let token = current.withLock({ $0 }), token != refused { return token }
        let provider = self.provider
        let current = self.current
        return try await refreshes.outcome(for: 0) { () async -> Result<String, SyncError> in
            // A refresh that ended just before this one started may have replaced the token.
            if let token = current.withLock({ $0 }), token != refused { return .success(token) }
            let result = await Self.call(provider, refused: refused)
            if case .success(let token) = result { current.withLock { $0 = token } }
            return result
        }.get()
    }

    /// The provider's token; one that cannot be sent in a header is a failure, so that it is
    /// not kept.
    private static func call(_ provider: TokenProvider, refused: String?) async -> Result<String, SyncError> {
        do {
            let token = try await provider(refused)
            if let problem = HTTPHeaderSyntax.valueProblem(token) {
                return .failure(.invalidHeader(name: "Authorization", reason: "the provider's token: \(problem)"))
            }
            return .success(token)
        } catch let error as SyncError {
            return .failure(error)
        } catch is CancellationError {
            return .failure(.cancelled)
        } catch {
            return .failure(.transport("the token provider failed: \(error)"))
        }
    }
}
