import Foundation
import Keel
import KeelTestServer
import Testing

/// The paginator against a stock DRF `PageNumberPagination` list and the Rails app's `Link`
/// and `X-Total-Count` headers, with no parsing code of the app's own.
@MainActor
struct PaginationIntegrationTests {
    final class Article: Model {
        override class var wireFormat: WireFormat { .djangoREST }
    }

    final class Note: Model {
        override class var wireFormat: WireFormat { .rails }
    }

    @Test func aDjangoRESTPaginatedListPageByPage() async throws {
        let server = try await TestServer.dedicated(to: "pagination")
        let api = RESTSync(baseURL: server.baseURL)
        let all = Collection<Article>(url: "/drf/articles", sync: api)
        for index in 1...7 { try await all.create(["title": .string("Article \(index)")]) }
        let articles = Collection<Article>(url: "/drf/paged-articles", sync: api)
        let pages = Paginator(articles, style: .djangoREST())
        try await pages.loadNextPage()
        #expect(pages.totalCount == 7)
        #expect(articles.length == 3)
        while pages.hasNextPage { try await pages.loadNextPage() }
        #expect(articles.pluck("title") == (1...7).map { .string("Article \($0)") })
        #expect(pages.currentPage == 3)
    }

    @Test func railsLinkAndTotalHeadersPageByPage() async throws {
        let server = try await RailsTestServer.dedicated(to: "pagination")
        let api = RESTSync(baseURL: server.baseURL)
        let all = Collection<Note>(url: "/notes", sync: api)
        for index in 1...5 { try await all.create(["title": .string("Note \(index)")]) }
        let notes = Collection<Note>(url: "/notes", sync: api)
        let pages = Paginator(notes, style: .pageNumber(), pageSize: 2)
        while pages.hasNextPage { try await pages.loadNextPage() }
        #expect(notes.pluck("title") == (1...5).map { .string("Note \($0)") })
        #expect(pages.totalCount == 5)
        let linked = Paginator(
            Collection<Note>(url: "/notes", sync: api),
            style: .linkHeader,
            pageSize: 2,
            appends: false
        )
        try await linked.loadNextPage()
        try await linked.loadNextPage()
        #expect(linked.collection.pluck("title") == ["Note 3", "Note 4"])
        try await linked.loadPreviousPage()
        #expect(linked.collection.pluck("title") == ["Note 1", "Note 2"])
        try await linked.loadPage(2)
        #expect(linked.collection.pluck("title") == ["Note 3", "Note 4"])
        #expect(linked.collection.lastResponse?.url?.query?.contains("page=2") == true)
    }
}
