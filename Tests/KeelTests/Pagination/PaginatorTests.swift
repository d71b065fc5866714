import Foundation
import Keel
import Testing

/// The paginator against scripted servers of every page style: the URLs it asks for, what
/// it reads from envelopes and headers, appending and replacing.
@MainActor
struct PaginatorTests {
    /// Five records served `size` at a time from `?page=&per_page=`, with `X-Total-Count`.
    private func pagedBackend(headers: @escaping @Sendable (Int, Int) -> [String: String] = { _, _ in [:] })
        -> ScriptedSync
    {
        ScriptedSync { request in
            let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
            let items = components?.queryItems ?? []
            let page = Int(items.first { $0.name == "page" }?.value ?? "1") ?? 1
            let size = Int(items.first { $0.name == "per_page" }?.value ?? "5") ?? 5
            let ids = Array((1...5).dropFirst((page - 1) * size).prefix(size))
            return SyncResponse(
                headers: ["x-total-count": "5"].merging(headers(page, size)) { $1 },
                body: .array(ids.map { ["id": .int($0)] })
            )
        }
    }

    @Test func pageNumbersAppendPagesUntilTheTotal() async throws {
        let backend = pagedBackend()
        let notes = Collection<Model>(url: "/notes", sync: backend)
        let pages = Paginator(notes, style: .pageNumber(), pageSize: 2)
        #expect(pages.hasNextPage)
        try await pages.loadNextPage()
        try await pages.loadNextPage()
        try await pages.loadNextPage()
        #expect(notes.pluck("id") == [1, 2, 3, 4, 5])
        #expect(pages.totalCount == 5)
        #expect(pages.currentPage == 3)
        #expect(!pages.hasNextPage)
        let beyond = try await pages.loadNextPage()
        #expect(beyond.isEmpty)
        #expect(
            backend.requests.map(\.url.absoluteString) == [
                "/notes?page=1&per_page=2", "/notes?page=2&per_page=2", "/notes?page=3&per_page=2",
            ]
        )
        #expect(notes.lastResponse?.headers["x-total-count"] == "5")
        #expect(notes.lastResponse?.body == [["id": 5]])
    }

    @Test func replacingPagesGoesBackAndForth() async throws {
        let notes = Collection<Model>(url: "/notes", sync: pagedBackend())
        let pages = Paginator(notes, style: .pageNumber(), pageSize: 2, appends: false)
        try await pages.loadPage(2)
        #expect(notes.pluck("id") == [3, 4])
        #expect(pages.hasPreviousPage)
        try await pages.loadPreviousPage()
        #expect(notes.pluck("id") == [1, 2])
        #expect(!pages.hasPreviousPage)
    }

    @Test func aPageNumberBelowOneIsUnavailableAndSendsNothing() async throws {
        let backend = pagedBackend()
        let pages = Paginator(Collection<Model>(url: "/notes", sync: backend), style: .pageNumber(), pageSize: 2)
        for number in [0, -3] {
            let error = await #expect(throws: SyncError.self) { _ = try await pages.loadPage(number) }
            guard case .pageUnavailable(number, let reason) = error else {
                Issue.record("\(String(describing: error))")
                continue
            }
            #expect(reason == "pages start at 1")
        }
        #expect(backend.requests.isEmpty)
        #expect(
            SyncError.pageUnavailable(0, reason: "pages start at 1").description
                == "Page 0 cannot be loaded: pages start at 1"
        )
    }

    @Test func aCursorOrLinkPageNotYetReachedIsUnavailable() async throws {
        let cursorBackend = ScriptedSync(always: SyncResponse(body: ["data": [["id": 1]], "meta": ["next": "abc"]]))
        let feed = Paginator(
            Collection<Model>(url: "/feed", sync: cursorBackend),
            style: .cursor(nextKeyPath: "meta.next", listKeyPath: "data")
        )
        let cursorError = await #expect(throws: SyncError.self) { _ = try await feed.loadPage(3) }
        guard case .pageUnavailable(3, _) = cursorError else {
            Issue.record("\(String(describing: cursorError))")
            return
        }
        let linkBackend = pagedBackend()
        let linked = Paginator(Collection<Model>(url: "/notes", sync: linkBackend), style: .linkHeader, pageSize: 2)
        let linkError = await #expect(throws: SyncError.self) { _ = try await linked.loadPage(2) }
        guard case .pageUnavailable(2, _) = linkError else {
            Issue.record("\(String(describing: linkError))")
            return
        }
        #expect(cursorBackend.requests.isEmpty && linkBackend.requests.isEmpty)
    }

    @Test func linkHeadersAreFollowed() async throws {
        let backend = pagedBackend { page, size in
            page < 3
                ? ["link": "</notes?page=\(page + 1)&per_page=\(size)>; rel=\"next\", </notes?page=1>; rel=\"first\""]
                : [:]
        }
        let notes = Collection<Model>(url: "/notes", sync: backend)
        let pages = Paginator(notes, style: .linkHeader, pageSize: 2)
        while pages.hasNextPage { try await pages.loadNextPage() }
        #expect(notes.pluck("id") == [1, 2, 3, 4, 5])
        #expect(
            backend.requests.map(\.url.absoluteString) == [
                "/notes?per_page=2", "/notes?page=2&per_page=2", "/notes?page=3&per_page=2",
            ]
        )
    }

    @Test func visitedLinkPagesLoadByNumberFromTheirURLs() async throws {
        let backend = pagedBackend { page, size in
            page < 3 ? ["link": "<?page=\(page + 1)&per_page=\(size)>; rel=\"next\""] : [:]
        }
        let notes = Collection<Model>(url: "/notes", sync: backend)
        let pages = Paginator(notes, style: .linkHeader, pageSize: 2, appends: false)
        while pages.hasNextPage { try await pages.loadNextPage() }
        try await pages.loadPage(2)
        #expect(notes.pluck("id") == [3, 4])
        #expect(pages.currentPage == 2)
        try await pages.loadPage(1)
        #expect(notes.pluck("id") == [1, 2])
        #expect(
            backend.requests.suffix(2).map(\.url.absoluteString) == ["/notes?page=2&per_page=2", "/notes?per_page=2"]
        )
        let unknown = SyncError.pageUnavailable(
            4,
            reason: "its link is not known yet (pages are reached from their neighbours)"
        )
        await #expect(throws: unknown) { _ = try await pages.loadPage(4) }
    }

    @Test func djangoRESTPagesAndSizesGoUnderTheirParameters() async throws {
        let envelope: JSONValue = ["count": 30, "next": nil, "previous": nil, "results": []]
        let backend = ScriptedSync(always: SyncResponse(body: envelope))
        let articles = Collection<Model>(url: "/articles/", sync: backend)
        try await Paginator(articles, style: .djangoREST(), pageSize: 10).loadPage(3)
        try await Paginator(articles, style: .djangoREST(page: "p", pageSize: "size"), pageSize: 10).loadPage(3)
        try await Paginator(articles, style: .djangoREST(pageSize: "size"), pageSize: 10).loadFirstPage()
        #expect(
            backend.requests.map(\.url.absoluteString) == [
                "/articles/?page=3", "/articles/?p=3&size=10", "/articles/?size=10",
            ]
        )
    }

    @Test func djangoRESTEnvelopesAreReadWithTheCollectionsFormat() async throws {
        final class Article: Model {
            override class var wireFormat: WireFormat { .djangoREST }
        }
        let backend = ScriptedSync { request in
            let second = request.url.absoluteString.contains("page=2")
            return SyncResponse(body: [
                "count": 3,
                "next": second ? nil : "http://127.0.0.1/articles/?page=2",
                "previous": second ? "http://127.0.0.1/articles/" : nil,
                "results": second ? [["id": 3, "published_at": "x"]] : [["id": 1], ["id": 2]],
            ])
        }
        let articles = Collection<Article>(url: "/articles", sync: backend)
        let pages = Paginator(articles, style: .djangoREST())
        try await pages.loadFirstPage()
        #expect(pages.totalCount == 3)
        try await pages.loadNextPage()
        #expect(articles.pluck("id") == [1, 2, 3])
        #expect(articles.get(3)?["publishedAt"] == "x")
        #expect(!pages.hasNextPage)
        #expect(backend.requests.map(\.url.absoluteString) == ["/articles/", "http://127.0.0.1/articles/?page=2"])
    }

    @Test func cursorsComeFromTheResponse() async throws {
        let backend = ScriptedSync { request in
            let cursor = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?
                .first { $0.name == "cursor" }?.value
            return cursor == nil
                ? SyncResponse(body: ["data": [["id": 1]], "meta": ["next": "abc"]])
                : SyncResponse(body: ["data": [["id": 2]], "meta": ["next": nil]])
        }
        let feed = Collection<Model>(url: "/feed", sync: backend)
        let pages = Paginator(feed, style: .cursor(nextKeyPath: "meta.next", listKeyPath: "data"))
        while pages.hasNextPage { try await pages.loadNextPage() }
        #expect(feed.pluck("id") == [1, 2])
        #expect(backend.requests.map(\.url.absoluteString) == ["/feed", "/feed?cursor=abc"])
    }

    @Test func offsetsCountRecords() async throws {
        let backend = ScriptedSync { _ in SyncResponse(body: [["id": 1], ["id": 2]]) }
        let pages = Paginator(Collection<Model>(url: "/items", sync: backend), style: .offsetLimit(), pageSize: 2)
        try await pages.loadPage(3)
        #expect(backend.requests.first?.url.absoluteString == "/items?offset=4&limit=2")
    }

    @Test func anEnvelopeWithoutItsListThrowsNamingTheKeyPath() async throws {
        let backend = ScriptedSync(always: SyncResponse(body: ["count": 0]))
        let articles = Collection<Model>(url: "/articles", sync: backend)
        articles.add(Model(["id": 9]))
        await #expect(
            throws: SyncError.unmappableResponse(keyPath: "results", reason: "the response has nothing at \"results\"")
        ) {
            _ = try await Paginator(articles, style: .djangoREST()).loadFirstPage()
        }
        #expect(articles.pluck("id") == [9])
    }
}
