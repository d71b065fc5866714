import Foundation
import Testing

@testable import Keel

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Drupal session: login cookie, CSRF token before unsafe requests (renewed once when refused),
/// and neither sent to another origin.
///
/// The real endpoints are driven in `DrupalIntegrationTests`.
struct DrupalSessionTests {
    private let site = URL(string: "https://cms.example.test")!

    @Test func loginKeepsTheCookieAndTheTokenForUnsafeRequests() async throws {
        let transport = RecordingTransport()
        transport.enqueue(
            .json(
                #"{"current_user": {"uid": "1", "name": "admin"}, "csrf_token": "T1", "logout_token": "L1"}"#,
                headers: ["Set-Cookie": "SESSabc=xyz; expires=Wed, 23-Dec-2026 10:00:00 GMT; path=/; HttpOnly"]
            )
        )
        transport.enqueue(.json(#"{"nid": [{"value": 1}]}"#))
        transport.enqueue(.json(#"{"nid": [{"value": 2}]}"#, status: 201))
        let drupal = DrupalSession(RESTSync(baseURL: site, transport: transport))
        let user = try await drupal.login(name: "admin", password: "admin")
        #expect(user["name"] == "admin")
        #expect(drupal.isLoggedIn)
        _ = try await drupal.perform(SyncRequest(method: .read, url: URL(string: "/node/1")!))
        _ = try await drupal.perform(SyncRequest(method: .create, url: URL(string: "/node")!, body: [:]))
        let requests = transport.requests
        #expect(requests[0].url?.absoluteString == "https://cms.example.test/user/login?_format=json")
        #expect(requests[1].value(forHTTPHeaderField: "Cookie") == "SESSabc=xyz")
        #expect(requests[1].value(forHTTPHeaderField: "X-CSRF-Token") == nil)
        #expect(requests[2].value(forHTTPHeaderField: "X-CSRF-Token") == "T1")
    }

    @Test func anAnonymousSessionFetchesTheTokenFirstAndRenewsItOnceWhenRefused() async throws {
        let transport = RecordingTransport()
        transport.enqueue(.text("T1", status: 200, contentType: "text/plain"))
        transport.enqueue(.json(#"{"message": "X-CSRF-Token request header is invalid"}"#, status: 403))
        transport.enqueue(.text("T2", status: 200, contentType: "text/plain"))
        transport.enqueue(.empty())
        let drupal = DrupalSession(RESTSync(baseURL: site, transport: transport))
        _ = try await drupal.perform(SyncRequest(method: .delete, url: URL(string: "/node/4")!))
        let requests = transport.requests
        #expect(
            requests.map { "\($0.httpMethod ?? "") \($0.url?.path ?? "")" } == [
                "GET /session/token", "DELETE /node/4", "GET /session/token", "DELETE /node/4",
            ]
        )
        #expect(requests[3].value(forHTTPHeaderField: "X-CSRF-Token") == "T2")
    }

    @Test func neitherCookieNorTokenGoesToAnotherOrigin() async throws {
        let transport = RecordingTransport()
        transport.enqueue(.json(#"{"csrf_token": "T1"}"#, headers: ["Set-Cookie": "SESSabc=xyz; path=/"]))
        let drupal = DrupalSession(RESTSync(baseURL: site, transport: transport))
        try await drupal.login(name: "admin", password: "admin")
        _ = try await drupal.perform(
            SyncRequest(method: .create, url: URL(string: "https://evil.test/node")!, body: [:])
        )
        let foreign = try #require(transport.requests.last)
        #expect(foreign.value(forHTTPHeaderField: "Cookie") == nil)
        #expect(foreign.value(forHTTPHeaderField: "X-CSRF-Token") == nil)
    }

    @Test func setCookieHeadersJoinedByCommasGiveEveryPair() {
        #expect(
            DrupalSession.cookies(in: "SESSa=1; expires=Wed, 23-Dec-2026 10:00:00 GMT; path=/, other=2; HttpOnly")
                == "SESSa=1; other=2"
        )
        #expect(DrupalSession.cookies(in: "path=/") == nil)
        #expect(DrupalSession.cookies(in: nil) == nil)
    }

    @Test func logoutRemovesTheSessionCookieFromTheURLSessionsStorage() async throws {
        let wire = try WireListener { request in
            if request.target.hasPrefix("/user/login") {
                var reply = WireListener.Reply.json(
                    #"{"current_user": {"name": "admin"}, "csrf_token": "T1", "logout_token": "L1"}"#
                )
                reply.headers["Set-Cookie"] = "SESSabc=xyz; path=/; HttpOnly"
                return reply
            }
            guard request.target.hasPrefix("/user/logout") else { return .json("{}") }
            return WireListener.Reply(status: 204, headers: [:], body: "")
        }
        defer { wire.stop() }
        let drupal = DrupalSession(RESTSync(baseURL: wire.baseURL))
        try await drupal.login(name: "admin", password: "admin")
        _ = try await drupal.perform(SyncRequest(method: .read, url: URL(string: "/node/1")!))
        try await drupal.logout()
        #expect(!drupal.isLoggedIn)
        _ = try await drupal.perform(SyncRequest(method: .read, url: URL(string: "/node/1")!))
        let reads = wire.requests.filter { $0.target.hasPrefix("/node/1") }
        #expect(reads.map { $0.header("Cookie") } == ["SESSabc=xyz", nil])
    }

    @Test func logoutLeavesOtherCookiesInTheStorage() async throws {
        let wire = try WireListener { request in
            if request.target.hasPrefix("/user/login") {
                var reply = WireListener.Reply.json(
                    #"{"current_user": {"name": "admin"}, "csrf_token": "T1", "logout_token": "L1"}"#
                )
                reply.headers["Set-Cookie"] = "SESSabc=xyz; path=/"
                return reply
            }
            return WireListener.Reply(status: 204, headers: [:], body: "")
        }
        defer { wire.stop() }
        let session = URLSession(configuration: .ephemeral)
        let storage = try #require(session.configuration.httpCookieStorage)
        let other = try #require(
            HTTPCookie(properties: [.name: "theme", .value: "dark", .domain: "127.0.0.1", .path: "/"])
        )
        storage.setCookie(other)
        let drupal = DrupalSession(RESTSync(baseURL: wire.baseURL, transport: session))
        try await drupal.login(name: "admin", password: "admin")
        #expect(Set((storage.cookies ?? []).map(\.name)) == ["theme", "SESSabc"])
        try await drupal.logout()
        #expect((storage.cookies ?? []).map(\.name) == ["theme"])
    }
}
