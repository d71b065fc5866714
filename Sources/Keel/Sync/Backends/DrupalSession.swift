import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A backend for Drupal's REST API that holds a login session: it logs in with a user name and
/// password, sends the session cookie, and sends the CSRF token that Drupal asks of every
/// unsafe request (`POST`, `PATCH`, `PUT`, `DELETE`) as `X-CSRF-Token`.
///
/// It wraps a ``RESTSync`` whose ``RESTSync/baseURL`` is the Drupal site. The cookie and the
/// token go only to that origin, as the REST backend's default headers do. The token is
/// fetched before the first unsafe request (from `/session/token` in Drupal 8 and later), kept,
/// and fetched again once if Drupal refuses it.
///
/// ```swift
/// let drupal = DrupalSession(RESTSync(baseURL: URL(string: "https://cms.example.com")!))
/// try await drupal.login(name: "editor", password: password)
/// let article = Article(["type": "article", "title": "Hello"])   // wireFormat .drupal
/// article.sync = drupal
/// try await article.save()
/// ```
///
/// A CSRF token that cannot be sent in a header (one with a line break or another control
/// character) is not kept: the unsafe request that needs it throws
/// ``SyncError/invalidHeader(name:reason:)`` and is not sent.
///
/// For Drupal 7's Services module use ``Version/drupal7(endpoint:)``, which logs in at
/// `<endpoint>/user/login.json` and takes the token from `<endpoint>/user/token.json`.
public final class DrupalSession: Sync {
    /// Where the session's endpoints are.
    public enum Version: Sendable, Hashable {
        /// Drupal 8 and later: `/user/login?_format=json`, `/session/token`,
        /// `/user/logout?_format=json`.
        case drupal8
        /// Drupal 7's Services module at an endpoint path such as `/api`:
        /// `<endpoint>/user/login.json`, `<endpoint>/user/token.json`,
        /// `<endpoint>/user/logout.json`.
        case drupal7(endpoint: String)
    }

    /// The backend that sends the requests.
    public let rest: RESTSync
    /// The Drupal API whose session endpoints are used.
    public let version: Version

    private struct State {
        var cookie: String?
        var csrfToken: String?
        var logoutToken: String?
    }

    private let state = Lock(State())
    /// The names of the cookies Drupal has set through this session, which ``logout()`` removes
    /// from the transport's cookie storage.
    private let cookiesSet = Lock<Set<String>>([])

    /// Creates a session; it is anonymous until ``login(name:password:)``.
    ///
    /// ```swift
    /// let drupal = DrupalSession(RESTSync(baseURL: site), version: .drupal7(endpoint: "/api"))
    /// ```
    ///
    /// - Parameters:
    ///   - rest: The backend for the Drupal site, with its ``RESTSync/baseURL``.
    ///   - version: The Drupal API.
    public init(_ rest: RESTSync, version: Version = .drupal8) {
        self.rest = rest
        self.version = version
    }

    /// Whether the session has a login cookie.
    ///
    /// ```swift
    /// if !drupal.isLoggedIn { try await drupal.login(name: "editor", password: password) }
    /// ```
    public var isLoggedIn: Bool { state.withLock { $0.cookie != nil } }

    /// Logs in and keeps the session cookie and the CSRF token Drupal answers with.
    ///
    /// ```swift
    /// let user = try await drupal.login(name: "editor", password: password)
    /// user["name"]  // "editor"
    /// ```
    ///
    /// - Parameters:
    ///   - name: The user name.
    ///   - password: The password.
    /// - Returns: The user Drupal reports (`current_user`, or Drupal 7's `user`).
    /// - Throws: ``SyncError``: for wrong credentials ``SyncError/httpStatus(_:body:)`` with
    ///   Drupal's 400 or 401 and its message.
    @discardableResult
    public func login(name: String, password: String) async throws(SyncError) -> JSONObject {
        let path: String
        let query: [URLQueryItem]
        let body: JSONValue
        switch version {
        case .drupal8:
            (path, query, body) = (
                "/user/login", [Self.jsonFormat], ["name": .string(name), "pass": .string(password)]
            )
        case .drupal7(let endpoint):
            path = URLPath.join(endpoint, "user/login.json")
            (query, body) = ([], ["username": .string(name), "password": .string(password)])
        }
        state.withLock { $0 = State() }
        let response = try await rest.perform(
            SyncRequest(method: .create, url: try Self.url(path), body: body, query: query)
        )
        let answer = response.body?.objectValue ?? [:]
        noteCookies(of: response)
        // A token that cannot go in a header is not kept: the next unsafe request fetches one
        // and reports it.
        let csrfToken = (answer["csrf_token"]?.stringValue ?? answer["token"]?.stringValue)
            .flatMap { HTTPHeaderSyntax.valueProblem($0) == nil ? $0 : nil }
        state.withLock {
            $0.cookie = Self.cookies(in: response.headers["set-cookie"]) ?? $0.cookie
            $0.csrfToken = csrfToken
            $0.logoutToken = answer["logout_token"]?.stringValue
        }
        return answer["current_user"]?.objectValue ?? answer["user"]?.objectValue ?? [:]
    }

    /// Logs out and forgets the cookie and the token.
    ///
    /// The cookies Drupal set through this session are also removed from the cookie storage of
    /// the backend's `URLSession` (the default transport's, or the `URLSession` passed as
    /// ``RESTSync/transport``), where `URLSession` keeps them and would send them with the next
    /// request. A transport of your own keeps its cookies, if any, itself.
    ///
    /// ```swift
    /// try await drupal.logout()
    /// ```
    ///
    /// - Throws: ``SyncError`` when Drupal refuses; the session is forgotten anyway.
    public func logout() async throws(SyncError) {
        let request: SyncRequest
        switch version {
        case .drupal8:
            let logoutToken = state.withLock { $0.logoutToken }
            var query = [Self.jsonFormat]
            if let logoutToken { query.append(URLQueryItem(name: "token", value: logoutToken)) }
            request = SyncRequest(method: .create, url: try Self.url("/user/logout"), query: query)
        case .drupal7(let endpoint):
            request = SyncRequest(
                method: .create,
                url: try Self.url(URLPath.join(endpoint, "user/logout.json")),
                body: [:]
            )
        }
        defer {
            state.withLock { $0 = State() }
            forgetCookies()
        }
        _ = try await perform(request)
    }

    /// Sends a request with the session cookie and, for an unsafe one, the CSRF token; when
    /// Drupal refuses the token, fetches a new one and sends the request once more.
    ///
    /// ```swift
    /// let response = try await drupal.perform(SyncRequest(method: .read, url: URL(string: "/node/1")!))
    /// ```
    ///
    /// - Parameter request: The operation.
    /// - Returns: The response.
    /// - Throws: ``SyncError``.
    public func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        guard request.url.scheme == nil || HTTPOrigin.same(request.url, rest.baseURL) else {
            return try await rest.perform(request)
        }
        let unsafe = request.method != .read
        do {
            return try await send(request, withToken: unsafe ? try await csrfToken(renewing: false) : nil)
        } catch .httpStatus(403, let body) where unsafe && Self.refusesToken(body) {
            return try await send(request, withToken: try await csrfToken(renewing: true))
        }
    }

    // MARK: - Helpers

    private static let jsonFormat = URLQueryItem(name: "_format", value: "json")

    private func send(_ request: SyncRequest, withToken token: String?) async throws(SyncError) -> SyncResponse {
        var request = request
        if let cookie = state.withLock({ $0.cookie }), request.headers["Cookie"] == nil {
            request.headers["Cookie"] = cookie
        }
        if let token { request.headers["X-CSRF-Token"] = token }
        let response = try await rest.perform(request)
        noteCookies(of: response)
        if let cookie = Self.cookies(in: response.headers["set-cookie"]) {
            state.withLock { $0.cookie = cookie }
        }
        return response
    }

    /// Remembers the names of the cookies a response sets.
    private func noteCookies(of response: SyncResponse) {
        guard let pairs = Self.cookies(in: response.headers["set-cookie"]) else { return }
        let names = pairs.split(separator: ";").compactMap { $0.split(separator: "=").first }
        cookiesSet.withLock { $0.formUnion(names.map { $0.trimmingCharacters(in: .whitespaces) }) }
    }

    /// Removes the cookies Drupal set through this session from the cookie storage of the
    /// backend's `URLSession`, for the site's host.
    private func forgetCookies() {
        let names = cookiesSet.withLock { names in
            defer { names = [] }
            return names
        }
        guard !names.isEmpty, let host = rest.baseURL.flatMap(HTTPOrigin.init)?.host,
            let storage = (rest.transport as? any CookieStoringTransport)?.cookieStorage
        else { return }
        for cookie in storage.cookies ?? [] where names.contains(cookie.name) {
            let domain = cookie.domain.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "."))
            if domain == host || host.hasSuffix("." + domain) { storage.deleteCookie(cookie) }
        }
    }

    /// The kept CSRF token, or a new one from Drupal.
    private func csrfToken(renewing: Bool) async throws(SyncError) -> String {
        if !renewing, let token = state.withLock({ $0.csrfToken }) { return token }
        let request: SyncRequest
        switch version {
        case .drupal8:
            request = SyncRequest(method: .read, url: try Self.url("/session/token"))
        case .drupal7(let endpoint):
            request = SyncRequest(
                method: .create,
                url: try Self.url(URLPath.join(endpoint, "user/token.json")),
                body: [:]
            )
        }
        let response = try await send(request, withToken: nil)
        guard let token = response.body?.stringValue ?? response.body?["token"]?.stringValue, !token.isEmpty else {
            throw .invalidResponse("Drupal sent no CSRF token: \(response.body ?? .null)")
        }
        if let problem = HTTPHeaderSyntax.valueProblem(token) {
            throw .invalidHeader(name: "X-CSRF-Token", reason: "the token Drupal sent: \(problem)")
        }
        state.withLock { $0.csrfToken = token }
        return token
    }

    /// Whether a 403 is Drupal refusing the CSRF token (missing or invalid).
    private static func refusesToken(_ body: JSONValue?) -> Bool {
        let message = body?["message"]?.stringValue ?? body?[0]?.stringValue ?? body?.stringValue ?? ""
        return message.localizedCaseInsensitiveContains("csrf")
    }

    private static func url(_ path: String) throws(SyncError) -> URL {
        guard let url = URL(string: path) else { throw .missingURL("\(path) is not a valid URL") }
        return url
    }

    /// The `name=value` pairs of a `Set-Cookie` header (several cookies arrive joined by
    /// commas), as a `Cookie` header; `nil` when there are none.
    static func cookies(in header: String?) -> String? {
        guard let header else { return nil }
        let attributes: Set<String> = ["expires", "max-age", "path", "domain", "samesite", "secure", "httponly"]
        var pairs: [String] = []
        for piece in header.split(separator: ",") {
            let first = piece.split(separator: ";", maxSplits: 1).first ?? ""
            guard let equals = first.firstIndex(of: "=") else { continue }
            let name = first[..<equals].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, !name.contains(" "), !attributes.contains(name.lowercased()) else { continue }
            pairs.append(first.trimmingCharacters(in: .whitespaces))
        }
        return pairs.isEmpty ? nil : pairs.joined(separator: "; ")
    }
}
