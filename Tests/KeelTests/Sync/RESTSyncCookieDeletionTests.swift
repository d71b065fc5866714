import Foundation
@testable import Keel
import KeelTestServer
import Testing

/// A cookie the server deletes (`Max-Age=0` or an `Expires` in the past, as Django's and
/// Rails' logouts send) is not sent back: Foundation on Linux keeps such a cookie in the jar
/// and would send it as `name=""`.
struct RESTSyncCookieDeletionTests {
    @Test func aCookieTheServerDeletesIsNotSentBack() async throws {
        let server = try await TestServer.shared
        let api = RESTSync(baseURL: server.baseURL)
        let login = try await api.perform(
            SyncRequest(
                method: .create,
                url: try #require(URL(string: "user/login?_format=json")),
                body: ["name": "admin", "pass": "admin"]
            )
        )
        let token = try #require(login.body?["logout_token"]?.stringValue)
        #expect(try await cookieSent(by: api) != nil)

        let logout = try await api.perform(
            SyncRequest(method: .create, url: try #require(URL(string: "user/logout?_format=json&token=\(token)")))
        )
        #expect(logout.status == 204)
        #expect(logout.headers["set-cookie"]?.contains("Max-Age=0") == true)
        let after = try await cookieSent(by: api)
        #expect(after == nil, "sent back: \(after ?? "")")
    }

    @Test func deletionsAreReadFromJoinedSetCookieHeaders() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let header = [
            #"sessionid=""; expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/"#,
            "theme=dark; expires=Fri, 01 Jan 2100 00:00:00 GMT; Path=/",
            "csrftoken=x; Max-Age=0; Path=/",
            "remember=1; Max-Age=3600",
            "plain=2",
        ].joined(separator: ", ")
        #expect(CookieDeletions.names(in: header, now: now) == ["sessionid", "csrftoken"])
    }

    /// The `Cookie` header `/echo` received, or `nil`.
    private func cookieSent(by api: RESTSync) async throws -> String? {
        let echo = try await api.perform(SyncRequest(method: .read, url: try #require(URL(string: "echo"))))
        return echo.body?["headers"]?["cookie"]?.stringValue
    }
}
