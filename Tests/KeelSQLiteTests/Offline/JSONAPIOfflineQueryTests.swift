import Foundation
import Keel
import KeelSQLite
import Testing

/// An offline JSON:API list read answers only what the local copy can evaluate faithfully:
/// `filter[name]` equality, `include`, `fields[…]`, `sort` and `page[…]`; a search, an
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

    @Test(arguments: ["filter[search]", "search", "filter[title][lt]", "filter[author.name]", "filter[comments]"])
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
}
