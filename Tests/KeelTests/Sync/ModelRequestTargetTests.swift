import Foundation
import Testing

@testable import Keel

/// A model's requests carry their path, and make its `URL` only when asked.
///
/// That is so for a create, save, fetch or destroy when no base URL is known and the path is
/// plainly a relative URL: the request equals, hashes and splits as the one built from
/// `URL(string:)` of the path. With a base URL, or a path that is not plainly a relative URL,
/// the `URL` is made at once, as before.
@MainActor
struct ModelRequestTargetTests {
    /// The path a request carries, or `nil` when it carries a `URL`.
    private func carriedPath(_ request: SyncRequest) -> String? {
        if case .path(let path) = request.target { return path }
        return nil
    }

    /// `request` against the one built from `URL(string: path)` with the same method and body.
    private func expectSameAsParsed(_ request: SyncRequest, path: String) throws {
        var expected = SyncRequest(method: request.method, url: try #require(URL(string: path)), body: request.body)
        expected.requestBody = request.requestBody
        #expect(request == expected)
        #expect(request.hashValue == expected.hashValue)
        #expect(request.url == expected.url)
        #expect(request.path == path)
        #expect(ResourcePath(request) == ResourcePath(expected.url))
    }

    @Test func aCreateSaveAndDestroyWithoutABaseURLCarryTheirPath() throws {
        let notes = Collection<Model>(url: "/notes")
        let note = try #require(notes.add(["title": "Milk"]))
        let create = try #require(try note.saveRequest())
        #expect(create.method == .create)
        #expect(carriedPath(create) == "/notes")
        try expectSameAsParsed(create, path: "/notes")

        note["id"] = 7
        let update = try #require(try note.saveRequest(["title": "Oat milk"]))
        #expect(carriedPath(update) == "/notes/7")
        try expectSameAsParsed(update, path: "/notes/7")
        let destroy = try #require(try note.destroyRequest())
        #expect(carriedPath(destroy) == "/notes/7")
        try expectSameAsParsed(destroy, path: "/notes/7")
        let fetch = try note.fetchRequest()
        #expect(carriedPath(fetch) == "/notes/7")
        #expect(try note.requestURL(for: .delete) == URL(string: "/notes/7"))
    }

    @Test func anEncodedIDAndASuffixStayInThePath() throws {
        let note = Model(["id": "a/b"])
        note.urlRoot = "/notes"
        let destroy = try #require(
            try note.destroyRequest(options: SyncOptions(wireFormat: WireFormat(pathSuffix: ".json")))
        )
        #expect(carriedPath(destroy) == "/notes/a%2Fb.json")
        try expectSameAsParsed(destroy, path: "/notes/a%2Fb.json")
    }

    @Test func aBaseURLMakesTheURLAtOnce() throws {
        let notes = Collection<Model>(url: "/notes")
        notes.baseURL = URL(string: "https://api.example.com/v1")
        let note = try #require(notes.add(["id": 7]))
        let destroy = try #require(try note.destroyRequest())
        #expect(carriedPath(destroy) == nil)
        #expect(destroy.url.absoluteString == "https://api.example.com/v1/notes/7")
    }

    @Test(arguments: ["/notes?draft=true", "https://api.example.com/notes", "notes"])
    func aURLThatIsNotPlainlyAPathIsParsedAtOnce(url: String) throws {
        let note = Model(["id": 7])
        note.urlRoot = "/notes"
        let destroy = try #require(try note.destroyRequest(options: SyncOptions(url: url)))
        #expect(carriedPath(destroy) == nil)
        #expect(destroy.url == URL(string: url))
    }

    @Test func aStoreAnswersRequestsThatCarryTheirPath() async throws {
        let backend = InMemorySync()
        let notes = Collection<Model>(url: "/notes", sync: backend)
        let note = try await notes.create(["title": "Milk"])
        #expect(note.id == 1)
        try await note.save(["title": "Oat milk"])
        #expect(backend.records(at: "/notes").map { $0["title"] } == ["Oat milk"])
        #expect(backend.requests.allSatisfy { carriedPath($0) != nil })
        try await note.destroy()
        #expect(backend.records(at: "/notes").isEmpty)
    }
}
