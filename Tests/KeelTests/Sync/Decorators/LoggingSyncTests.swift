import Foundation
import Keel
import KeelTestServer
import Synchronization
import Testing

/// NSRails' `networkLogging`: `LoggingSync` reports each request and its response or failure
/// (method, URL, status, duration, bodies when asked) to the app's handler, with credentials in
/// headers, query items and body fields redacted, and passes everything through unchanged.
struct LoggingSyncTests {
    final class Entries: Sendable {
        private let stored = Mutex<[SyncLogEntry]>([])
        var all: [SyncLogEntry] { stored.withLock { $0 } }
        func append(_ entry: SyncLogEntry) { stored.withLock { $0.append(entry) } }
    }

    @Test func logsTheRequestThenTheResponse() async throws {
        let entries = Entries()
        let base = ScriptedSync(always: SyncResponse(status: 200, headers: ["etag": "\"v1\""], body: ["id": 7]))
        let api = LoggingSync(base, handler: entries.append)

        let response = try await api.perform(SyncRequest(method: .read, url: SyncFixture.url("/notes/7")))

        #expect(response.body == ["id": 7])
        let logged = entries.all
        try #require(logged.count == 2)
        #expect(logged.map(\.kind) == [.request, .response])
        #expect(logged.map(\.level) == [.debug, .info])
        #expect(logged.map(\.requestNumber) == [1, 1])
        #expect(logged[0].message == "GET /notes/7")
        #expect(logged[0].duration == nil && logged[0].status == nil)
        #expect(logged[1].status == 200)
        #expect(logged[1].headers == ["etag": "\"v1\""])
        let duration = try #require(logged[1].duration)
        #expect(duration >= .zero)
        #expect(logged[1].message.hasPrefix("GET /notes/7 → 200 ("))
        #expect(logged[1].metadata["status"] == "200")
        #expect(logged.allSatisfy { $0.body == nil })
    }

    @Test func credentialsAreRedactedEverywhere() async throws {
        let entries = Entries()
        let base = ScriptedSync(
            always: SyncResponse(
                headers: ["set-cookie": "session=abc", "content-type": "application/json"],
                body: ["user": ["name": "Ann", "auth_token": "t0k3n"]]
            )
        )
        let api = LoggingSync(base, logsBodies: true, handler: entries.append)
        var request = SyncRequest(
            method: .create,
            url: SyncFixture.url("/session?api_key=k3y&page=2"),
            body: ["user": ["name": "Ann", "password": "hunter2", "passwordConfirmation": "hunter2"]]
        )
        request.query = [URLQueryItem(name: "access_token", value: "q")]
        request.headers = [
            "Authorization": "Bearer s3cret", "Cookie": "session=abc", "X-CSRF-Token": "csrf",
            "X-Api-Key": "k3y", "Accept-Language": "en",
        ]
        _ = try await api.perform(request)

        let logged = entries.all
        try #require(logged.count == 2)
        let redacted = SyncLogRedaction.placeholder
        #expect(
            logged[0].headers == [
                "Authorization": redacted, "Cookie": redacted, "X-CSRF-Token": redacted, "X-Api-Key": redacted,
                "Accept-Language": "en",
            ]
        )
        #expect(
            logged[0].url.absoluteString == "/session?api_key=%5BREDACTED%5D&page=2&access_token=%5BREDACTED%5D"
        )
        #expect(
            logged[0].body == ["user": ["name": "Ann", "password": .string(redacted), "passwordConfirmation": .string(redacted)]]
        )
        #expect(logged[1].headers == ["set-cookie": redacted, "content-type": "application/json"])
        #expect(logged[1].body == ["user": ["name": "Ann", "auth_token": .string(redacted)]])
        let everything = logged.map { "\($0.message) \($0.headers) \($0.body ?? nil) \($0.metadata)" }.joined()
        for secret in ["s3cret", "hunter2", "t0k3n", "k3y", "csrf", "session=abc"] {
            #expect(!everything.contains(secret))
        }
        #expect(base.requests == [request])
    }

    @Test func aFailureIsLoggedAndRethrownUnchanged() async throws {
        let entries = Entries()
        let page = "<html><head><title>Oops</title></head><body><h1>Server Error (500)</h1></body></html>"
        let failure = SyncError.httpStatus(500, body: .string(page))
        let api = LoggingSync(ScriptedSync(failing: failure), handler: entries.append)

        await #expect(throws: failure) {
            try await api.perform(SyncRequest(method: .delete, url: SyncFixture.url("/notes/1")))
        }
        let logged = entries.all
        try #require(logged.count == 2)
        #expect(logged[1].kind == .failure)
        #expect(logged[1].level == .error)
        #expect(logged[1].status == 500)
        #expect(logged[1].error == failure)
        #expect(logged[1].body == nil)
        #expect(logged[1].message.hasPrefix("DELETE /notes/1 failed ("))
        #expect(logged[1].message.hasSuffix("): The server answered 500: Server Error (500)"))
    }

    @Test func redactionCanBeExtended() {
        let redaction = SyncLogRedaction.standard.adding(headers: ["X-Tenant"], fields: ["ssn"])
        #expect(redaction.hidesHeader("x-tenant"))
        #expect(redaction.hidesField("customer_SSN"))
        #expect(redaction.hidesHeader("Authorization"))
        #expect(!redaction.hidesHeader("Accept"))
        #expect(!redaction.hidesField("title"))
        #expect(!SyncLogRedaction(headers: ["Authorization"]).hidesHeader("Cookie"))
    }

    @Test func requestsAreNumberedPerDecorator() async throws {
        let entries = Entries()
        let api = LoggingSync(InMemorySync(), handler: entries.append)
        _ = try await api.perform(SyncRequest(method: .create, url: SyncFixture.url("/notes"), body: ["title": "A"]))
        _ = try await api.perform(SyncRequest(method: .read, url: SyncFixture.url("/notes")))
        #expect(entries.all.map(\.requestNumber) == [1, 1, 2, 2])
        #expect(entries.all.map(\.message.first) == ["P", "P", "G", "G"])
    }

    @Test func aRealExchangeIsLoggedWithoutItsCredentials() async throws {
        let server = try await TestServer.shared
        let entries = Entries()
        let api = LoggingSync(RESTSync(baseURL: server.baseURL), logsBodies: true, handler: entries.append)
        let note = Model(["title": "Logged", "password": "hunter2"])
        note.urlRoot = "/echo/notes"
        note.sync = api

        try await note.save(options: SyncOptions(headers: ["Authorization": "Token s3cret"]))

        #expect(note["headers"]?["authorization"] == "Token s3cret")
        #expect(note["json"]?["password"] == "hunter2")
        let logged = entries.all
        try #require(logged.count == 2)
        #expect(logged[0].url.absoluteString == "/echo/notes")
        #expect(logged[0].headers == ["Authorization": SyncLogRedaction.placeholder])
        #expect(logged[0].body?["password"] == .string(SyncLogRedaction.placeholder))
        #expect(logged[1].status == 200)
        #expect(logged[1].body?["method"] == "POST")
        #expect(logged[1].body?["headers"]?["authorization"] == .string(SyncLogRedaction.placeholder))
        #expect(logged[1].body?["json"]?["password"] == .string(SyncLogRedaction.placeholder))
        let everything = logged.map { "\($0.headers) \($0.body ?? nil)" }.joined()
        #expect(!everything.contains("s3cret"))
        #expect(everything.contains("Logged"))
    }
}
