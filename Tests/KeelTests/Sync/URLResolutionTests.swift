import Foundation
import Keel
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private final class Library: Collection<Model> {
    override class var url: String? { "/collection" }
}

private final class Book: Model {
    override class var urlRoot: String? { "/books" }
}

private final class HostedBook: Model {
    override class var urlRoot: String? { "/books" }
    override class var baseURL: URL? { URL(string: "https://class.example.com/api") }
}

/// A model whose URL depends on its attributes (Backbone's `urlRoot` as a function).
private final class NestedItem: Model {
    override func url() throws(SyncError) -> String {
        let parent = get("parentId").map { "\($0)" } ?? "none"
        let base = "/nested/\(parent)/collection"
        guard let id = id, !isNew else { return base }
        return base + "/\(id)"
    }
}

/// A model with ISModel's per-operation URLs.
private final class Report: Model {
    override class var urlRoot: String? { "/reports" }
    override var fetchURL: String? { id.map { "/reports/\($0)/full" } }
    override var createURL: String? { "/users/7/reports" }
    override var updateURL: String? { id.map { "/reports/\($0)/edit" } }
    override var destroyURL: String? { id.map { "/archive/reports/\($0)" } }
}

/// A model whose per-operation URLs are all `nil`: `url()` is used.
private final class PlainReport: Model {
    override class var urlRoot: String? { "/reports" }
    override var fetchURL: String? { nil }
}

/// A model with only a fetch URL and neither `urlRoot` nor a collection.
private final class FeedItem: Model {
    override var fetchURL: String? { "/feed/latest" }
}

// MARK: - url()

struct ModelURLTests {
    // Backbone model.js "url".
    @Test func modelInCollectionUsesCollectionURLPlusID() throws {
        let library = Library()
        let book = Model(["id": "1-the-tempest", "title": "The Tempest"])
        library.add(book)
        #expect(try book.url() == "/collection/1-the-tempest")

        library.url = "/collection/"
        #expect(try book.url() == "/collection/1-the-tempest")
    }

    @Test func newModelInCollectionUsesCollectionURL() throws {
        let library = Library()
        let book = library.add(["title": "New"])
        #expect(try book?.url() == "/collection")
    }

    @Test func modelOutsideCollectionWithoutURLRootThrowsMissingURL() {
        let book = Model(["id": 1])
        #expect {
            try book.url()
        } throws: { error in
            guard case SyncError.missingURL = error else { return false }
            return true
        }
    }

    @Test func removedModelFallsBackToItsURLRootOrThrows() throws {
        let library = Library()
        let book = Model(["id": 3])
        library.add(book)
        library.remove(book)
        #expect(throws: SyncError.self) { try book.url() }

        book.urlRoot = "/books"
        #expect(try book.url() == "/books/3")
    }

    @Test func emptyCollectionURLAndEmptyURLRootCountAsMissing() throws {
        let library = Collection<Model>(url: "")
        let book = Model(["id": 1])
        library.add(book)
        book.urlRoot = ""
        #expect(throws: SyncError.self) { try book.url() }

        book.urlRoot = "/books"
        #expect(try book.url() == "/books/1")
    }

    // ISModel: the collection's URL comes before the model's urlRoot (Backbone prefers urlRoot).
    @Test func collectionURLWinsOverURLRoot() throws {
        let library = Library()
        let book = Book(["id": 5])
        #expect(try book.url() == "/books/5")
        library.add(book)
        #expect(try book.url() == "/collection/5")
    }

    // Backbone model.js "url when using urlRoot, and uri encoding".
    @Test func urlRootPlusPercentEncodedID() throws {
        let book = Model()
        book.urlRoot = "/collection"
        #expect(try book.url() == "/collection")
        book.set(["id": "+1+"])
        #expect(try book.url() == "/collection/%2B1%2B")
    }

    @Test(arguments: [
        ("a b/c?d", "a%20b%2Fc%3Fd"),
        ("a/b", "a%2Fb"),
        ("?x", "%3Fx"),
        ("é", "%C3%A9"),
        ("100%", "100%25"),
        ("#frag&x=1", "%23frag%26x%3D1"),
        ("keep-_.!~*'()", "keep-_.!~*'()"),
        ("AZaz09", "AZaz09"),
        ("@[`{", "%40%5B%60%7B"),
        ("tab\there", "tab%09here"),
    ])
    func idIsEncodedLikeEncodeURIComponent(id: String, encoded: String) throws {
        let book = Book(["id": .string(id)])
        #expect(try book.url() == "/books/" + encoded)
    }

    @Test func numericIDsUseTheirDecimalForm() throws {
        #expect(try Book(["id": 42]).url() == "/books/42")
        #expect(try Book(["id": 0]).url() == "/books/0")
        #expect(try Book(["id": -5]).url() == "/books/-5")
        #expect(try Book(["id": 2.0]).url() == "/books/2")
        #expect(try Book(["id": 1.5]).url() == "/books/1.5")
        #expect(try Book(["id": 1e20]).url() == "/books/1e%2B20")
    }

    @Test func newModelUsesURLRootAlone() throws {
        #expect(try Book().url() == "/books")
        #expect(try Book(["id": nil]).url() == "/books")
    }

    @Test func exactlyOneSlashBetweenURLRootAndID() throws {
        let book = Model(["id": 1])
        book.urlRoot = "/collection/"
        #expect(try book.url() == "/collection/1")
        book.urlRoot = "/collection"
        #expect(try book.url() == "/collection/1")
    }

    @Test func classURLRootIsTheInstanceDefault() throws {
        let book = Book(["id": 9])
        #expect(book.urlRoot == "/books")
        book.urlRoot = "/archive"
        #expect(try book.url() == "/archive/9")
        #expect(Book().urlRoot == "/books", "an instance's urlRoot is its own")
    }

    @Test func assigningNilURLRootHidesTheClassURLRoot() {
        let book = Book(["id": 9])
        book.urlRoot = nil
        #expect(book.urlRoot == nil)
        #expect(throws: SyncError.self) { try book.url() }
    }

    // Backbone model.js "url when using urlRoot as a function to determine urlRoot at runtime".
    @Test func overriddenURLCanDependOnAttributes() throws {
        let item = NestedItem(["parentId": 1])
        #expect(try item.url() == "/nested/1/collection")
        item.set(["id": 2])
        #expect(try item.url() == "/nested/1/collection/2")
        #expect(try item.requestURL(for: .update) == SyncFixture.url("/nested/1/collection/2"))
    }

    @Test func usingANonDefaultIDAttribute() throws {
        final class Mongo: Model {
            override class var idAttribute: String { "_id" }
            override class var urlRoot: String? { "/mongo" }
        }
        let doc = Mongo(["id": "ignored", "_id": 25])
        #expect(try doc.url() == "/mongo/25")
        doc.unset("_id")
        #expect(try doc.url() == "/mongo")
    }
}

// MARK: - Base URL chain

struct BaseURLTests {
    @Test func noBaseURLLeavesTheURLRelative() throws {
        let book = Book(["id": 1])
        #expect(book.resolvedBaseURL == nil)
        let url = try book.requestURL(for: .read)
        #expect(url.scheme == nil)
        #expect(SyncFixture.text(url) == "/books/1")
    }

    @Test func classBaseURLIsUsedWhenNothingElseIsSet() throws {
        let book = HostedBook(["id": 1])
        #expect(SyncFixture.text(try book.requestURL(for: .read)) == "https://class.example.com/api/books/1")
    }

    @Test func collectionBaseURLWinsOverClassBaseURL() throws {
        let library = Collection<HostedBook>(url: "/shelf")
        library.baseURL = URL(string: "https://collection.example.com")
        let book = HostedBook(["id": 2])
        library.add(book)
        #expect(SyncFixture.text(try book.requestURL(for: .read)) == "https://collection.example.com/shelf/2")
    }

    @Test func modelBaseURLWinsOverCollectionAndClass() throws {
        let library = Collection<HostedBook>(url: "/shelf")
        library.baseURL = URL(string: "https://collection.example.com")
        let book = HostedBook(["id": 3])
        library.add(book)
        book.baseURL = URL(string: "https://model.example.com/v2/")
        #expect(book.resolvedBaseURL == URL(string: "https://model.example.com/v2/"))
        #expect(SyncFixture.text(try book.requestURL(for: .read)) == "https://model.example.com/v2/shelf/3")
    }

    // ISModel asks the collection's base URL first; Keel asks the model's, in the same order
    // as the backend (see "Differences from Backbone").
    @Test func baseURLAndBackendAreLookedUpInTheSameOrder() async throws {
        let collectionBackend = ScriptedSync()
        let modelBackend = ScriptedSync()
        let library = Collection<HostedBook>(url: "/shelf", sync: collectionBackend)
        library.baseURL = URL(string: "https://collection.example.com")
        let book = HostedBook(["id": 3])
        library.add(book)
        book.baseURL = URL(string: "https://model.example.com")
        book.sync = modelBackend
        try await book.fetch()
        book.baseURL = nil
        try await book.fetch()
        #expect(
            modelBackend.requests.map { SyncFixture.text($0.url) } == [
                "https://model.example.com/shelf/3",
                "https://collection.example.com/shelf/3",
            ]
        )
        #expect(collectionBackend.requests.isEmpty)
    }

    @Test(arguments: [
        "https://api.example.com/v1",
        "https://api.example.com/v1/",
    ])
    func exactlyOneSlashBetweenBaseURLAndPath(base: String) throws {
        let book = Book(["id": 4])
        book.baseURL = URL(string: base)
        #expect(SyncFixture.text(try book.requestURL(for: .read)) == "https://api.example.com/v1/books/4")
    }

    @Test func absoluteURLRootIsLeftAlone() throws {
        let book = Model(["id": 5])
        book.urlRoot = "https://other.example.org/things"
        book.baseURL = URL(string: "https://api.example.com/v1")
        #expect(SyncFixture.text(try book.requestURL(for: .read)) == "https://other.example.org/things/5")
    }

    @Test func absoluteCollectionURLIsLeftAlone() throws {
        let library = Collection<HostedBook>(url: "http://elsewhere.example.net/shelf")
        let book = HostedBook(["id": 6])
        library.add(book)
        #expect(SyncFixture.text(try book.requestURL(for: .update)) == "http://elsewhere.example.net/shelf/6")
    }

    @Test func optionsURLIsResolvedAgainstTheBaseURL() throws {
        let book = Book(["id": 7])
        book.baseURL = URL(string: "https://api.example.com")
        let url = try book.requestURL(for: .read, options: SyncOptions(url: "/one/two"))
        #expect(SyncFixture.text(url) == "https://api.example.com/one/two")
    }

    @Test func backendBaseURLResolvesRelativeRequestURLs() async throws {
        let transport = RecordingTransport()
        let book = Book(["id": 8])
        book.sync = RESTSync(baseURL: URL(string: "https://backend.example.com/api"), transport: transport)
        try await book.fetch()
        #expect(SyncFixture.text(transport.lastRequest?.url) == "https://backend.example.com/api/books/8")
    }

    @Test func modelBaseURLWinsOverBackendBaseURL() async throws {
        let transport = RecordingTransport()
        let book = Book(["id": 9])
        book.baseURL = URL(string: "https://model.example.com")
        book.sync = RESTSync(baseURL: URL(string: "https://backend.example.com/api"), transport: transport)
        try await book.fetch()
        #expect(SyncFixture.text(transport.lastRequest?.url) == "https://model.example.com/books/9")
    }

    @Test func collectionFetchUsesCollectionThenClassBaseURL() async throws {
        let backend = InMemorySync()
        let library = Collection<HostedBook>(url: "/shelf", sync: backend)
        try await library.fetch()
        library.baseURL = URL(string: "https://collection.example.com/")
        try await library.fetch()
        #expect(
            backend.requests.map { SyncFixture.text($0.url) } == [
                "https://class.example.com/api/shelf",
                "https://collection.example.com/shelf",
            ]
        )
    }

    @Test func collectionFetchWithoutURLThrowsMissingURL() async {
        let library = Collection<Model>(sync: InMemorySync())
        await #expect {
            _ = try await library.fetch()
        } throws: { error in
            guard case SyncError.missingURL = error else { return false }
            return true
        }
    }
}

// MARK: - Per-operation URLs

struct PerOperationURLTests {
    @Test func eachOperationUsesItsOwnURL() async throws {
        let backend = ScriptedSync { request in
            request.method == .create ? SyncResponse(status: 201, body: ["id": 1]) : SyncResponse(status: 204)
        }
        let report = Report(["title": "Q2"])
        report.sync = backend

        try await report.save()  // create
        let id = try #require(report.id)
        try await report.fetch()
        try await report.save(["title": "Q2 final"])  // update
        try await report.save(["done": true], patch: true)  // patch
        try await report.destroy()

        #expect(
            backend.requests.map { "\($0.method) \($0.path)" } == [
                "create /users/7/reports",
                "read /reports/\(id)/full",
                "update /reports/\(id)/edit",
                "patch /reports/\(id)/edit",
                "delete /archive/reports/\(id)",
            ]
        )
    }

    @Test func perOperationURLsAreResolvedAgainstTheBaseURL() throws {
        let report = Report(["id": 3])
        report.baseURL = URL(string: "https://api.example.com/v1")
        #expect(SyncFixture.text(try report.requestURL(for: .read)) == "https://api.example.com/v1/reports/3/full")
        #expect(SyncFixture.text(try report.requestURL(for: .create)) == "https://api.example.com/v1/users/7/reports")
        #expect(SyncFixture.text(try report.requestURL(for: .update)) == "https://api.example.com/v1/reports/3/edit")
        #expect(SyncFixture.text(try report.requestURL(for: .patch)) == "https://api.example.com/v1/reports/3/edit")
        #expect(
            SyncFixture.text(try report.requestURL(for: .delete)) == "https://api.example.com/v1/archive/reports/3"
        )
    }

    @Test func nilPerOperationURLFallsBackToURL() throws {
        let report = PlainReport(["id": 4])
        for method in SyncMethod.allCases {
            #expect(SyncFixture.text(try report.requestURL(for: method)) == "/reports/4")
        }
    }

    @Test func perOperationURLWorksWithoutURLRootOrCollection() async throws {
        let backend = InMemorySync(records: ["/feed": [["id": "latest", "title": "News"]]])
        let item = FeedItem()
        item.sync = backend
        try await item.fetch()
        #expect(item["title"] == "News")
        #expect(throws: SyncError.self) { try item.requestURL(for: .update) }
    }

    @Test func optionsURLWinsOverPerOperationURL() throws {
        let report = Report(["id": 5])
        let url = try report.requestURL(for: .read, options: SyncOptions(url: "/custom"))
        #expect(SyncFixture.text(url) == "/custom")
    }

    @Test func perOperationURLWinsOverCollectionURL() throws {
        let reports = Collection<Report>(url: "/team/reports")
        let report = Report(["id": 6])
        reports.add(report)
        #expect(try report.url() == "/team/reports/6")
        #expect(SyncFixture.text(try report.requestURL(for: .read)) == "/reports/6/full")
    }
}
