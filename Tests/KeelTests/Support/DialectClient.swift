import Foundation
import KeelTestServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Plain `URLSession` requests to the test server's DRF and Drupal endpoints, for tests of the
/// server itself (no Keel models in between).
///
/// It keeps no cookies and follows no redirects: a test passes its session cookie explicitly
/// (from `Set-Cookie`) and sees every 3xx as it is. Both matter on Linux, where an ephemeral
/// session stores cookies by itself and `.default` shares `HTTPCookieStorage.shared` with
/// every other test.
///
/// ```swift
/// let client = try await DialectClient()
/// let login = try await client.send("POST", "user/login?_format=json", json: #"{"name":"admin","pass":"admin"}"#)
/// let reply = try await client.send("GET", "session/token", cookie: login.sessionCookie)
/// ```
struct DialectClient: Sendable {
    let server: TestServer
    private let session: URLSession

    init() async throws {
        server = try await TestServer.shared
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpCookieStorage = nil
        session = URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
    }

    /// `http://127.0.0.1:PORT/` + `path`, as a string.
    func absolute(_ path: String) -> String {
        server.url(path).absoluteString
    }

    /// Sends one request; `json` is sent as the body with `contentType`, `cookie` as the
    /// `Cookie` header.
    func send(
        _ method: String,
        _ path: String,
        json: String? = nil,
        contentType: String? = "application/json",
        cookie: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> WireReply {
        var request = URLRequest(url: server.url(path))
        request.httpMethod = method
        if let json {
            request.httpBody = Data(json.utf8)
            if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        }
        if let cookie { request.setValue(cookie, forHTTPHeaderField: "Cookie") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return WireReply(status: http.statusCode, headers: fields, body: data)
    }
}

/// Refuses every redirect, so the 3xx answer itself reaches the test.
private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

/// One response: status, headers (lower-cased names) and the raw body.
struct WireReply: Sendable {
    let status: Int
    let headers: [String: String]
    let body: Data

    /// The body as UTF-8 text, exactly as sent (escapes and all).
    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed by Foundation's `JSONSerialization`, or `nil` if it is not JSON.
    var json: Any? { try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) }

    /// The body as a JSON object (empty when it is something else).
    var object: [String: Any] { json as? [String: Any] ?? [:] }

    /// The body as a JSON array (empty when it is something else).
    var array: [Any] { json as? [Any] ?? [] }

    /// The media type of `Content-Type`, without parameters.
    var mediaType: String? {
        headers["content-type"]?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// `name=value` of the cookie set by `Set-Cookie`, ready for a `Cookie` header.
    var sessionCookie: String? {
        guard let header = headers["set-cookie"] else { return nil }
        return header.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
