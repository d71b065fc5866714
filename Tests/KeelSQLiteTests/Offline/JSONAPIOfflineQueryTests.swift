import Keel
import KeelSQLite
import Testing

/// An offline JSON:API list read answers only what the local copy can evaluate faithfully:
/// `filter[name]` equality, `include`, `fields[…]`, `sort` and pages (cut as the server
/// would, by the stock `page[…]` names or a `Paginator`'s own); a search, a cursor, an
/// operator or a name that no stored resource has throws instead of matching nothing.
@MainActor
struct JSONAPIOfflineQueryTests {
    typealias Article = JSONAPIOfflineModels.Article

    /// A cache that read the list document online, now offline.
    private func offlineCache() async throws -> CachingSync {
        let remote = JSONAPIRemote()
        remote.serve(JSONAPIOfflineModels.listDocument, at: "/articles")
        let cache = try JSONAPIOfflineModels.cache(remote: remote)
        try await Collection<Article>(url: "/articles", sync: cache).fetch()
        remote.isOnline = false
        return cache
    }

    private func titles(
        _ query: KeyValuePairs<String, String>,
        _ cache: CachingSync,
        readPolicy: ReadPolicy = .localOnly
    )
        async throws -> [JSONValue?]
    {
        var options = SyncOptions()
        options.query = query
        let articles = Collection<Article>(url: "/articles", sync: cache)
        try await articles.fetch(readPolicy: readPolicy, options: options)
        return articles.pluck("title")
    }

    @Test(arguments: [
        "filter[search]", "search", "filter[title][lt]", "filter[author.name]", "filter[comments]", "page[cursor]",
    ])
    func aParameterTheLocalCopyCannotEvaluateThrows(parameter: String) async throws {
        let cache = try await offlineCache()

        for policy in [ReadPolicy.localOnly, .remoteFirst] {
            let error = await #expect(throws: SyncError.self) {
                _ = try await titles([parameter: "Eng"], cache, readPolicy: policy)
            }
            guard case .unevaluableQuery(let name, _)? = error else {
                Issue.record("expected unevaluableQuery, got \(String(describing: error))")
                continue
            }
            #expect(name == parameter)
        }
    }

    @Test func equalityIncludeFieldsSortAndPagesStillAnswerOffline() async throws {
        let cache = try await offlineCache()

        #expect(try await titles(["filter[title]": "Sails"], cache) == ["Sails"])
        #expect(try await titles(["filter[author]": "9", "sort": "-title"], cache) == ["Sails", "Engines"])
        #expect(
            try await titles(
                ["include": "author", "fields[articles]": "title", "page[number]": "1", "page[size]": "10"],
                cache
            ) == ["Engines", "Sails"]
        )
    }

    @Test func aPaginatorPagesThroughTheLocalCopyByItsOwnNames() async throws {
        let cache = try await offlineCache()

        let stock = Collection<Article>(url: "/articles", sync: cache)
        let pages = Paginator(stock, style: .jsonAPI(), pageSize: 1)
        try await pages.loadFirstPage()
        #expect(stock.pluck("title") == ["Engines"])
        #expect(pages.hasNextPage)
        #expect(pages.totalCount == 2)
        try await pages.loadNextPage()
        #expect(stock.pluck("title") == ["Engines", "Sails"])
        #expect(!pages.hasNextPage)

        let named = Collection<Article>(url: "/articles", sync: cache)
        let own = Paginator(
            named,
            style: .jsonAPI(page: "p", pageSize: "size", totalKeyPath: "meta.total"),
            pageSize: 1
        )
        own.appends = false
        try await own.loadPage(2)
        #expect(named.pluck("title") == ["Sails"])
        #expect(own.totalCount == 2)
        #expect(own.hasPreviousPage)

        let offsets = Collection<Article>(url: "/articles", sync: cache)
        let skipping = Paginator(offsets, style: .jsonAPIOffset(offset: "skip", limit: "take"), pageSize: 1)
        try await skipping.loadFirstPage()
        while skipping.hasNextPage { try await skipping.loadNextPage() }
        #expect(offsets.pluck("title") == ["Engines", "Sails"])

        // Sorted first, then cut.
        #expect(try await titles(["sort": "-title", "page[number]": "1", "page[size]": "1"], cache) == ["Sails"])
    }
}
