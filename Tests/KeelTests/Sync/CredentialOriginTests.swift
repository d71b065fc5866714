import Foundation
import Keel
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Default headers that must reach the configured origin and no other.
private let defaults = ["Authorization": "Bearer secret", "Cookie": "session=1", "X-API-Key": "key"]

/// The two listeners of a test: `home` is RESTSync's base URL, `foreign` another origin (the
/// same host on another port).
private struct Origins {
    let home: WireListener
    let foreign: WireListener
    let api: RESTSync

    init(
        home: @escaping @Sendable (WireListener.Request) -> WireListener.Reply = { _ in .json("{}") },
        foreign: @escaping @Sendable (WireListener.Request) -> WireListener.Reply = { _ in .json("{}") }
    ) throws {
        self.home = try WireListener(reply: home)
        self.foreign = try WireListener(reply: foreign)
        api = RESTSync(baseURL: self.home.baseURL, headers: defaults, timeout: .seconds(60))
    }

    func foreignURL(_ path: String) -> String { foreign.baseURL.absoluteString + path }

    func stop() {
        home.stop()
        foreign.stop()
    }
}

/// Whether a request carries none of the default headers.
private func carriesNoDefaults(_ request: WireListener.Request?) -> Bool {
    guard let request else { return false }
    return defaults.keys.allSatisfy { request.header($0) == nil }
}

/// Whether a request carries every default header.
private func carriesDefaults(_ request: WireListener.Request?) -> Bool {
    guard let request else { return false }
    return defaults.allSatisfy { request.header($0.key) == $0.value }
}

// MARK: - Requests to other origins

struct CredentialOriginTests {
    @Test func requestsToTheBaseURLsOriginCarryTheDefaultHeaders() async throws {
        let origins = try Origins()
        defer { origins.stop() }
        let note = Model(["id": 1])
        note.urlRoot = "/notes"
        note.sync = origins.api
        try await note.fetch()
        #expect(origins.home.requests.map(\.target) == ["/notes/1"])
        #expect(carriesDefaults(origins.home.requests.first))
    }

    @Test func anOptionsURLOnAnotherOriginGetsNoDefaultHeaders() async throws {
        let origins = try Origins()
        defer { origins.stop() }
        let note = Model(["id": 1])
        note.urlRoot = "/notes"
        note.sync = origins.api
        try await note.fetch(options: SyncOptions(url: origins.foreignURL("/steal")))
        #expect(origins.foreign.requests.map(\.target) == ["/steal"])
        #expect(carriesNoDefaults(origins.foreign.requests.first))
        #expect(origins.home.requests.isEmpty)
    }

    @Test func aCallsOwnHeadersStillGoWhereTheCallSends() async throws {
        let origins = try Origins()
        defer { origins.stop() }
        let note = Model(["id": 1])
        note.urlRoot = "/notes"
        note.sync = origins.api
        try await note.fetch(options: SyncOptions(url: origins.foreignURL("/partner"), headers: ["X-Partner": "p"]))
        #expect(origins.foreign.requests.first?.header("X-Partner") == "p")
        #expect(carriesNoDefaults(origins.foreign.requests.first))
    }

    @Test func anAbsoluteURLRootOnAnotherOriginGetsNoDefaultHeaders() async throws {
        let origins = try Origins()
        defer { origins.stop() }
        let note = Model(["id": 2])
        note.urlRoot = origins.foreignURL("/notes")
        note.sync = origins.api
        try await note.destroy(wait: true)
        #expect(origins.foreign.requests.map(\.target) == ["/notes/2"])
        #expect(carriesNoDefaults(origins.foreign.requests.first))
    }

    @Test func anAbsoluteCollectionURLOnAnotherOriginGetsNoDefaultHeaders() async throws {
        let origins = try Origins(foreign: { .json($0.target == "/notes" ? "[]" : "{}") })
        defer { origins.stop() }
        let notes = Collection<Model>(url: origins.foreignURL("/notes"), sync: origins.api)
        try await notes.fetch()
        let note = try #require(notes.add(["id": 3]))
        try await note.save(["title": "x"])
        #expect(origins.foreign.requests.map(\.target) == ["/notes", "/notes/3"])
        #expect(origins.foreign.requests.allSatisfy(carriesNoDefaults))
    }

    @Test func aModelBaseURLOnAnotherOriginGetsNoDefaultHeaders() async throws {
        let origins = try Origins()
        defer { origins.stop() }
        let note = Model(["id": 4])
        note.urlRoot = "/notes"
        note.baseURL = origins.foreign.baseURL
        note.sync = origins.api
        try await note.fetch()
        #expect(origins.foreign.requests.map(\.target) == ["/notes/4"])
        #expect(carriesNoDefaults(origins.foreign.requests.first))
    }

    @Test func withoutABaseURLNoRequestGetsTheDefaultHeaders() throws {
        let api = RESTSync(headers: defaults)
        let request = try api.urlRequest(
            for: SyncRequest(method: .read, url: SyncFixture.url("https://example.test/a"))
        )
        #expect(defaults.keys.allSatisfy { request.value(forHTTPHeaderField: $0) == nil })
    }

    @Test(arguments: [
        ("https://example.test", "https://example.test:443/a", true),
        ("https://EXAMPLE.test/v1/", "HTTPS://example.TEST/other", true),
        ("http://example.test:80", "http://example.test/a", true),
        ("https://example.test", "http://example.test/a", false),
        ("https://example.test", "https://example.test:8443/a", false),
        ("https://example.test", "https://api.example.test/a", false),
        ("https://example.test", "https://example.test.evil.test/a", false),
        ("https://example.test", "https://example.test@evil.test/a", false),
    ])
    func defaultHeadersFollowSchemeHostAndPort(base: String, target: String, sameOrigin: Bool) throws {
        let api = RESTSync(baseURL: SyncFixture.url(base), headers: defaults)
        let request = try api.urlRequest(for: SyncRequest(method: .read, url: SyncFixture.url(target)))
        #expect(request.value(forHTTPHeaderField: "Authorization") == (sameOrigin ? "Bearer secret" : nil))
    }
}

// MARK: - Redirects

struct CredentialRedirectTests {
    @Test func aRedirectToAnotherOriginDropsTheDefaultHeaders() async throws {
        let foreign = try WireListener { _ in .json(#"{"landed": true}"#) }
        defer { foreign.stop() }
        let location = foreign.baseURL.absoluteString + "/landing"
        let origins = try Origins(home: { _ in .redirect(to: location) })
        defer { origins.stop() }
        let note = Model(["id": 5])
        note.urlRoot = "/notes"
        note.sync = origins.api
        try await note.fetch()
        #expect(note["landed"] == true)
        #expect(carriesDefaults(origins.home.requests.first))
        #expect(foreign.requests.map(\.target) == ["/landing"])
        #expect(carriesNoDefaults(foreign.requests.first))
        #expect(foreign.requests.first?.header("Accept") == BodyCodecs.standard.acceptHeader)
    }

    @Test func aRedirectWithinTheOriginKeepsTheDefaultHeaders() async throws {
        let origins = try Origins(home: { request in
            request.target == "/old" ? .redirect(to: "/new") : .json(#"{"landed": true}"#)
        })
        defer { origins.stop() }
        let note = Model(["id": 6])
        note.sync = origins.api
        try await note.fetch(options: SyncOptions(url: "/old"))
        #expect(note["landed"] == true)
        #expect(origins.home.requests.map(\.target) == ["/old", "/new"])
        #expect(origins.home.requests.allSatisfy(carriesDefaults))
    }

    @Test func aGuardedSessionOfYourOwnDropsThemToo() async throws {
        let foreign = try WireListener { _ in .json("{}") }
        defer { foreign.stop() }
        let location = foreign.baseURL.absoluteString + "/landing"
        let home = try WireListener { _ in .redirect(to: location, status: 307) }
        defer { home.stop() }
        let session = URLSession(
            configuration: .ephemeral,
            delegate: CrossOriginRedirectGuard(),
            delegateQueue: nil
        )
        let api = RESTSync(baseURL: home.baseURL, headers: defaults, transport: session)
        _ = try await api.perform(SyncRequest(method: .update, url: SyncFixture.url("/notes/7"), body: ["a": 1]))
        #expect(home.requests.map(\.method) == ["PUT"])
        #expect(foreign.requests.map(\.method) == ["PUT"])
        #expect(carriesNoDefaults(foreign.requests.first))
        #expect(foreign.requests.first?.header("Content-Type") == "application/json")
    }

    @Test(arguments: [307, 308])
    func aMethodKeepingRedirectKeepsTheBody(status: Int) async throws {
        let home = try WireListener { request in
            request.target == "/old" ? .redirect(to: "/new", status: status) : .json(#"{"moved": true}"#)
        }
        defer { home.stop() }
        let api = RESTSync(baseURL: home.baseURL)
        let response = try await api.perform(
            SyncRequest(method: .update, url: SyncFixture.url("/old"), body: ["title": "Kept"])
        )
        #expect(response.body == ["moved": true])
        #expect(home.requests.map(\.method) == ["PUT", "PUT"])
        #expect(
            home.requests.map { String(decoding: $0.body, as: UTF8.self) } == [
                #"{"title":"Kept"}"#, #"{"title":"Kept"}"#,
            ]
        )
    }

    @Test func aRedirectedUploadSendsItsFileAgain() async throws {
        let home = try WireListener { request in
            request.target == "/old" ? .redirect(to: "/new", status: 308) : .json(#"{"stored": true}"#)
        }
        defer { home.stop() }
        var form = MultipartForm()
        form.append("title", "Scan")
        form.append("scan", file: .data(Data(repeating: 7, count: 10_000), filename: "scan.bin"))
        var upload = SyncRequest(method: .create, url: SyncFixture.url("/old"))
        upload.requestBody = .multipart(form)
        let response = try await RESTSync(baseURL: home.baseURL).perform(upload)
        #expect(response.body == ["stored": true])
        #expect(home.requests.map(\.method) == ["POST", "POST"])
        #expect(home.requests.map(\.body.count).allSatisfy { $0 > 10_000 })
        #expect(home.requests.first?.body == home.requests.last?.body)
    }
}
