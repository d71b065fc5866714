import Foundation
import Testing

@testable import Keel

/// A read by id carries its record's path and makes its `URL` only when asked: the request
/// equals, hashes and splits as the one built from `URL(string:)` of the same path, and a path
/// that is not plainly a relative URL is parsed at once, as before.
struct RecordReadRequestTests {
    /// Paths `RequestTarget(validPath:)` takes as they are.
    static let validPaths = [
        "/", "/notes", "/notes/7", "/notes/a%2Fb", "/notes/100%25", "/notes.json", "/a:b@c!$&'()*+,;=-._~/x",
        "/notes/%E2%9C%93",
    ]

    /// Paths it leaves to `URL(string:)`: no leading slash, an authority, a query or a
    /// fragment, a stray `%`, a space, non-ASCII text.
    static let otherPaths = [
        "", "notes/7", "//host/notes", "/notes?done=true", "/notes#top", "/notes/100%", "/notes/%zz", "/my notes/7",
        "/notes/✓", "/notes/[1]",
    ]

    @Test(arguments: validPaths)
    func aValidPathsURLIsTheOneParsingItGives(path: String) throws {
        let target = try #require(RequestTarget(validPath: path))
        let parsed = try #require(URL(string: path))
        #expect(target.url == parsed)
        #expect(target.percentEncodedPath == parsed.path(percentEncoded: true))
        #expect(target == .url(parsed))
        #expect(target.hashValue == RequestTarget.url(parsed).hashValue)
    }

    @Test(arguments: otherPaths)
    func anyOtherPathIsLeftToURLParsing(path: String) {
        #expect(RequestTarget(validPath: path) == nil)
    }

    @Test func aReadByIDEqualsTheRequestBuiltFromItsURL() throws {
        let (request, path) = try SyncRequest.recordRead(collection: "/notes", id: 7, format: .plain)
        let expected = SyncRequest(method: .read, url: try #require(URL(string: "/notes/7")))
        #expect(path == "/notes/7")
        #expect(request == expected)
        #expect(request.hashValue == expected.hashValue)
        #expect(request.url == expected.url)
        #expect(request.path == "/notes/7")
        #expect(ResourcePath(request) == ResourcePath(expected.url))
    }

    @Test func aReadByIDKeepsTheFormatsSuffixAndQuery() throws {
        let format = WireFormat(pathSuffix: ".json", query: ["b": "2", "a": "1"])
        let (request, path) = try SyncRequest.recordRead(collection: "/notes/", id: "a/b", format: format)
        #expect(path == "/notes/a%2Fb.json")
        #expect(request.url == URL(string: "/notes/a%2Fb.json"))
        #expect(request.query == [URLQueryItem(name: "a", value: "1"), URLQueryItem(name: "b", value: "2")])
        #expect(ResourcePath(request) == ResourcePath(request.url))
    }

    @Test func aPathThatIsNotPlainlyAURLIsParsedAsBefore() throws {
        guard let parsed = URL(string: "/my notes/7") else {
            #expect(throws: SyncError.self) {
                try SyncRequest.recordRead(collection: "/my notes", id: 7, format: .plain)
            }
            return
        }
        let (request, path) = try SyncRequest.recordRead(collection: "/my notes", id: 7, format: .plain)
        #expect(path == "/my notes/7")
        #expect(request.url == parsed)
        #expect(request.path == parsed.path(percentEncoded: true))
    }

    @Test func settingTheURLReplacesThePath() throws {
        var (request, _) = try SyncRequest.recordRead(collection: "/notes", id: 7, format: .plain)
        request.url = try #require(URL(string: "https://example.com/notes/8"))
        #expect(request.path == "/notes/8")
        #expect(request.url.host() == "example.com")
    }

    /// An integer id's path, built in one pass, is the one joining and encoding make.
    @Test(arguments: ["/notes", "/notes/", "/", "/users/1/invites", "/a%2Fb", "/notes.json", "/a//b"])
    func anIntegerIDsPathIsTheJoinedOne(collection: String) throws {
        for id in [0, 7, 10, 12_345, -3, Int.max, Int.min] {
            let path = try #require(RequestTarget.recordPath(collection: collection, id: id))
            #expect(path == URLPath.join(collection, String(id)))
            let (request, built) = try SyncRequest.recordRead(collection: collection, id: .int(id), format: .plain)
            #expect(built == path)
            #expect(request.path == path)
            #expect(ResourcePath(request) == ResourcePath(request.url))
            #expect(request == SyncRequest(method: .read, url: try #require(URL(string: path))))
        }
    }

    @Test(arguments: ["", "notes", "//host", "/my notes", "/notes?x=1", "/ü"])
    func anIntegerIDUnderAnyOtherCollectionIsJoinedAsBefore(collection: String) {
        #expect(RequestTarget.recordPath(collection: collection, id: 7) == nil)
        #expect(
            (try? SyncRequest.recordRead(collection: collection, id: 7, format: .plain).path)
                == {
                    let path = URLPath.join(collection, "7")
                    return URL(string: path) == nil ? nil : path
                }()
        )
    }

    @Test func anIntegerIDsSegmentIsItsDecimalText() {
        let values = [0, 1, 9, 10, 99, 100, 12_345, 999_999_999_999_999, -1, -10, -12_345, Int.max, Int.min]
        for value in values {
            #expect(URLPath.decimalText(value) == String(value))
            #expect(URLPath.encodeComponent(.int(value)) == String(value))
        }
    }

    /// `URLPath.join` reads the slashes from bytes; it joins as comparing characters did,
    /// including a `/` that a `Prepend` character (U+0600) or a combining mark (U+0301) takes
    /// into its own cluster.
    @Test(arguments: [
        ("/notes", "7"), ("/notes/", "7"), ("/notes", "/7"), ("/notes/", "/7"), ("/", "x"), ("", "x"), ("/n", ""),
        ("/a\u{0600}/", "x"), ("\u{0600}/", "/x"), ("/a", "/\u{0301}x"), ("/é/", "/ü"),
    ])
    func joiningPartsPutsExactlyOneSlashBetweenThemAsCharactersSay(base: String, component: String) {
        let expected =
            switch (base.hasSuffix("/"), component.hasPrefix("/")) {
            case (true, true): base + component.dropFirst()
            case (false, false): base + "/" + component
            default: base + component
            }
        #expect(URLPath.join(base, component) == expected)
    }
}

/// A read by id of a class with a response mapping for its route, which the read matches by
/// its URL.
final class MappedProfile: Model {
    override class var urlRoot: String? { "/profiles" }
}

struct RecordReadMappingTests {
    @Test func aReadByIDIsReadThroughTheMappingOfItsRoute() async throws {
        MappedProfile.responseMappings.register(ResponseMapping(route: "/profiles/:id", keyPath: "data"))
        let backend = ScriptedSync { _ in SyncResponse(body: ["data": ["id": 4, "name": "Ann"]]) }
        let map = IdentityMap()
        let profile = try #require(try await map.find(MappedProfile.self, id: 4, in: "/profiles", from: backend))
        #expect(profile["name"] == "Ann")
        #expect(profile["data"] == nil)
        #expect(backend.requests.map(\.url) == [URL(string: "/profiles/4")])
    }
}
