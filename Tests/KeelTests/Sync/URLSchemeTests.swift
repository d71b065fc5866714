import Foundation
import Keel
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// MARK: - Absolute or relative, by scheme

struct URLSchemeTests {
    @Test(arguments: [
        "/search?next=http://example.org/",
        "/search#http://example.org/",
        "search?next=https://example.org/",
        "/a/b:c",
    ])
    func aRelativeURLWithASchemeLaterOnIsResolvedAgainstTheBaseURL(path: String) throws {
        let note = Model(["id": 1])
        note.urlRoot = "/notes"
        note.baseURL = SyncFixture.url("https://api.example.test/v1")
        let url = try note.requestURL(for: .read, options: SyncOptions(url: path))
        #expect(url.host == "api.example.test")
        #expect(SyncFixture.text(url) == joined("https://api.example.test/v1", path))
    }

    @Test(arguments: [
        "https://other.example.test/x?next=/y",
        "HTTP://other.example.test/x",
        "svn+ssh.1-x://other.example.test/x",
    ])
    func aURLWithASchemeIsLeftAlone(absolute: String) throws {
        let note = Model(["id": 1])
        note.urlRoot = "/notes"
        note.baseURL = SyncFixture.url("https://api.example.test")
        #expect(SyncFixture.text(try note.requestURL(for: .read, options: SyncOptions(url: absolute))) == absolute)
    }

    @Test func aNetworkPathReferenceStaysOnTheBaseURLsHost() throws {
        let note = Model(["id": 1])
        note.baseURL = SyncFixture.url("https://api.example.test")
        let url = try note.requestURL(for: .read, options: SyncOptions(url: "//evil.example.test/x"))
        #expect(url.host == "api.example.test")
    }

    @Test func aRelativeRequestURLWithASchemeInItsQueryReachesTheBaseURL() throws {
        let api = RESTSync(baseURL: SyncFixture.url("https://api.example.test"))
        let relative = try #require(URL(string: "/search?next=http://example.org/"))
        let request = try api.urlRequest(for: SyncRequest(method: .read, url: relative))
        #expect(SyncFixture.text(request.url) == "https://api.example.test/search?next=http://example.org/")
    }

    @Test func anOptionsURLWithASchemeInItsQueryReachesTheServer() async throws {
        let listener = try WireListener { _ in .json(#"{"found": true}"#) }
        defer { listener.stop() }
        let note = Model(["id": 1])
        note.urlRoot = "/notes"
        note.sync = RESTSync(baseURL: listener.baseURL, timeout: .seconds(60))
        try await note.fetch(options: SyncOptions(url: "/search?next=http://example.org/"))
        #expect(note["found"] == true)
        #expect(listener.requests.map(\.target) == ["/search?next=http://example.org/"])
    }

    @Test func aCollectionURLWithASchemeInItsQueryReachesTheServer() async throws {
        let listener = try WireListener { _ in .json("[]") }
        defer { listener.stop() }
        let notes = Collection<Model>(
            url: "/notes?source=http://example.org/",
            sync: RESTSync(baseURL: listener.baseURL)
        )
        try await notes.fetch()
        #expect(listener.requests.map(\.target) == ["/notes?source=http://example.org/"])
    }
}

/// The expected text of `path` joined to `base` with exactly one slash.
private func joined(_ base: String, _ path: String) -> String {
    path.hasPrefix("/") ? base + path : base + "/" + path
}
