import Foundation
import Keel
import KeelTestServer
import Testing

/// A stock DRF `PageNumberPagination` (`/library/documents/`, two a page, the page size named
/// `size` by `page_size_query_param`; `/drf/paged-articles/`, three a page, no page-size
/// parameter): page jumps, the named page-size parameter and the total from `count`.
@MainActor
struct DjangoRESTPageJumpTests {
    final class Document: Model {
        override class var wireFormat: WireFormat { .djangoREST }
    }

    /// Starts a server of its own with `count` documents, `Doc 1` to `Doc <count>`.
    private func documents(_ count: Int) async throws -> (TestServer, Collection<Document>) {
        let server = try await TestServer.start()
        let documents = Collection<Document>(url: "/library/documents", sync: RESTSync(baseURL: server.baseURL))
        for index in 1...count { try await documents.create(["title": .string("Doc \(index)")], wait: true) }
        return (server, Collection<Document>(url: "/library/documents", sync: documents.sync))
    }

    @Test func anyPageLoadsByNumberWithTheTotalFromCount() async throws {
        let (server, documents) = try await documents(7)
        defer { server.stop() }
        let pages = Paginator(documents, style: .djangoREST(pageSize: "size"), appends: false)
        try await pages.loadPage(3)
        #expect(documents.pluck("title") == ["Doc 5", "Doc 6"])
        #expect(pages.currentPage == 3 && pages.totalCount == 7)
        #expect(pages.hasNextPage && pages.hasPreviousPage)
        try await pages.loadPreviousPage()
        #expect(documents.pluck("title") == ["Doc 3", "Doc 4"])
        try await pages.loadPage(4)
        #expect(documents.pluck("title") == ["Doc 7"])
        #expect(!pages.hasNextPage)
        let error = await #expect(throws: SyncError.self) { _ = try await pages.loadPage(5) }
        #expect(error?.status == 404)
        #expect(documents.pluck("title") == ["Doc 7"])
        try await pages.loadPage(2)
        #expect(documents.pluck("title") == ["Doc 3", "Doc 4"])
    }

    @Test func aNamedPageSizeParameterSetsThePageSize() async throws {
        let (server, documents) = try await documents(7)
        defer { server.stop() }
        let pages = Paginator(documents, style: .djangoREST(pageSize: "size"), pageSize: 3)
        try await pages.loadFirstPage()
        #expect(documents.length == 3)
        #expect(documents.lastResponse?.url?.query == "size=3")
        while pages.hasNextPage { try await pages.loadNextPage() }
        #expect(documents.pluck("title") == (1...7).map { .string("Doc \($0)") })
        #expect(pages.currentPage == 3)
    }

    @Test func stockPaginationGetsNoPageSizeParameter() async throws {
        final class Article: Model {
            override class var wireFormat: WireFormat { .djangoREST }
        }
        let server = try await TestServer.start()
        defer { server.stop() }
        let api = RESTSync(baseURL: server.baseURL)
        let all = Collection<Article>(url: "/drf/articles", sync: api)
        for index in 1...7 { try await all.create(["title": .string("Article \(index)")], wait: true) }
        let articles = Collection<Article>(url: "/drf/paged-articles", sync: api)
        let pages = Paginator(articles, style: .djangoREST(), pageSize: 50)
        try await pages.loadPage(3)
        #expect(articles.lastResponse?.url?.query == "page=3")
        #expect(articles.pluck("title") == ["Article 7"])
        #expect(pages.totalCount == 7 && !pages.hasNextPage)
    }
}

/// A `.djangoREST` collection's plain `fetch()` reads DRF's paginated envelope
/// (`DEFAULT_PAGINATION_CLASS` on) and a plain list (pagination off) alike.
@MainActor
struct DjangoRESTEnvelopeFetchTests {
    final class Document: Model {
        override class var wireFormat: WireFormat { .djangoREST }
    }

    @Test func aPlainFetchReadsThePaginatedEnvelope() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let documents = Collection<Document>(url: "/library/documents", sync: RESTSync(baseURL: server.baseURL))
        for title in ["Memo", "Minutes", "Plan"] { try await documents.create(["title": .string(title)], wait: true) }
        let fresh = Collection<Document>(url: "/library/documents", sync: documents.sync)
        try await fresh.fetch()
        #expect(fresh.pluck("title") == ["Memo", "Minutes"])
        #expect(fresh.first?["createdAt"] != nil)
        #expect(fresh.lastResponse?.body?["count"] == 3)
    }

    @Test func aPlainFetchStillReadsAList() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let articles = Collection<Document>(url: "/drf/articles", sync: RESTSync(baseURL: server.baseURL))
        try await articles.create(["title": "Unpaged"], wait: true)
        let fresh = Collection<Document>(url: "/drf/articles", sync: articles.sync)
        try await fresh.fetch()
        #expect(fresh.pluck("title") == ["Unpaged"])
    }
}
