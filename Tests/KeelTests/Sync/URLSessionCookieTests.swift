import Foundation
import KeelTestServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What `URLSession` itself does with a session cookie (the Drupal login's), which a cookie-based
/// wire format relies on.
///
/// Only ephemeral sessions here: `.default` and `URLSession.shared` share
/// `HTTPCookieStorage.shared`, so a login through them would reach every other test.
struct URLSessionCookieTests {
    /// Logs in as the Drupal admin through `session`; returns the `name=value` it was set.
    private func logIn(_ session: URLSession, _ server: TestServer) async throws -> String {
        var request = URLRequest(url: server.url("user/login?_format=json"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"name": "admin", "pass": "admin"}"#.utf8)
        let (_, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        try #require(http.statusCode == 200)
        let header = try #require(http.value(forHTTPHeaderField: "Set-Cookie"))
        return try #require(header.split(separator: ";").first.map(String.init))
    }

    /// The `Cookie` header `/echo` received from `session`, or `nil`.
    private func cookieSent(by session: URLSession, _ server: TestServer) async throws -> String? {
        let (data, _) = try await session.data(from: server.url("echo"))
        let echo = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (echo["headers"] as? [String: Any])?["cookie"] as? String
    }

    @Test func anEphemeralSessionSendsBackTheCookieItWasSet() async throws {
        let server = try await TestServer.shared
        let session = URLSession(configuration: .ephemeral)
        let cookie = try await logIn(session, server)
        #expect(try await cookieSent(by: session, server) == cookie)
    }

    @Test func ephemeralSessionsDoNotShareCookies() async throws {
        let server = try await TestServer.shared
        _ = try await logIn(URLSession(configuration: .ephemeral), server)
        #expect(try await cookieSent(by: URLSession(configuration: .ephemeral), server) == nil)
    }

    @Test func aSessionThatDoesNotSetCookiesSendsNone() async throws {
        let server = try await TestServer.shared
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        let session = URLSession(configuration: configuration)
        _ = try await logIn(session, server)
        #expect(try await cookieSent(by: session, server) == nil)
    }
}
