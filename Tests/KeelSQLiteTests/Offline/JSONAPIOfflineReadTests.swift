import Foundation
import Keel
import KeelSQLite
import Testing

/// The offline cache with a JSON:API server: what a read brings is stored as resource
/// objects (the primary data in its collection, `included` ones in their type's), and local
/// answers are JSON:API documents that `WireFormat.jsonAPI` reads as it reads the server's.
@MainActor
struct JSONAPIOfflineReadTests {
    typealias Article = JSONAPIOfflineModels.Article
    typealias Author = JSONAPIOfflineModels.Author
    typealias Comment = JSONAPIOfflineModels.Comment

    private var includeAll: SyncOptions {
        var options = SyncOptions()
        options.resources.include = ["author", "comments", "comments.author"]
        return options
    }

    /// A cache that read the list document online.
    private func fetchedOnline() async throws -> (CachingSync, JSONAPIRemote) {
        let remote = JSONAPIRemote()
        remote.serve(JSONAPIOfflineModels.listDocument, at: "/articles")
        let cache = try JSONAPIOfflineModels.cache(remote: remote)
        let online = Collection<Article>(url: "/articles", sync: cache)
        try await online.fetch(options: includeAll)
        #expect(online.length == 2)
        return (cache, remote)
    }

    @Test func aListFetchedOnlineIsReadOfflineWithTheSameModelsAndRelations() async throws {
        let (cache, remote) = try await fetchedOnline()
        remote.isOnline = false

        let articles = Collection<Article>(url: "/articles", sync: cache)
        try await articles.fetch(readPolicy: .localOnly, options: includeAll)

        #expect(articles.pluck("title") == ["Engines", "Sails"])
        #expect(articles.map(\.id) == [1, 2])
        let first = try #require(articles.first)
        #expect(first["authorId"] == 9)
        #expect(first[Article.author]?["name"] == "Ada")
        #expect(first[Article.comments].pluck("body") == ["First!"])
        #expect(first[Article.comments].first?[Comment.author]?["name"] == "Ada")
        #expect(articles.last?[Article.comments].length == 0)
    }

    @Test func theLocalAnswerIsADocumentWithTheIncludedResourcesItsLinkageReaches() async throws {
        let (cache, remote) = try await fetchedOnline()
        remote.isOnline = false
        var request = SyncRequest(method: .read, url: URL(string: "/articles")!, headers: ["Accept": JSONAPIFormat.mediaType])
        request.query = [URLQueryItem(name: "include", value: "comments.author")]

        let body = try await cache.perform(request).body

        let data = try #require(body?["data"]?.arrayValue)
        #expect(data == JSONAPIOfflineModels.listDocument["data"]?.arrayValue)
        // comments.author reaches the comment, then its author, once each.
        #expect(body?["included"]?.arrayValue?.compactMap { $0["type"]?.stringValue } == ["comments", "authors"])
        #expect(body?["links"] == nil && body?["meta"] == nil)

        request.query = []
        #expect(try await cache.perform(request).body?["included"] == nil)
    }

    @Test func aRecordFetchedInAListIsReadOfflineOnItsOwn() async throws {
        let (cache, remote) = try await fetchedOnline()
        remote.isOnline = false

        let article = Article(["id": 1])
        article.sync = cache
        try await article.fetch(readPolicy: .remoteFirst, options: includeAll)

        #expect(article["title"] == "Engines")
        #expect(article[Article.author]?["name"] == "Ada")
        #expect(article[Article.comments].pluck("body") == ["First!"])

        let author = Author(["id": 9])
        author.sync = cache
        try await author.fetch(readPolicy: .localOnly)
        #expect(author["name"] == "Ada")
    }

    @Test func aRecordFetchedAloneIsStoredUnderItsCollection() async throws {
        let remote = JSONAPIRemote()
        remote.serve(
            [
                "data": JSONAPIOfflineModels.resource("authors", "4", ["name": "Grace"]),
                "links": ["self": "/authors/4"],
            ],
            at: "/authors/4"
        )
        let cache = try JSONAPIOfflineModels.cache(remote: remote)
        let author = Author(["id": 4])
        author.sync = cache
        try await author.fetch()
        remote.isOnline = false

        let offline = Author(["id": 4])
        offline.sync = cache
        try await offline.fetch(readPolicy: .localOnly)

        #expect(offline["name"] == "Grace")
        #expect(try await cache.local.record("4", in: "/authors")?["attributes"] == ["name": "Grace"])
    }

    @Test func aListWithANextPageOrAFilterRemovesNoStoredRecord() async throws {
        let (cache, remote) = try await fetchedOnline()
        var page = JSONAPIOfflineModels.listDocument.objectValue ?? [:]
        page["data"] = [JSONAPIOfflineModels.listDocument["data"]?[0] ?? .null]
        page["links"] = ["next": "/articles?page%5Bnumber%5D=2"]
        remote.serve(.object(page), at: "/articles")

        try await Collection<Article>(url: "/articles", sync: cache).fetch()

        #expect(try await cache.local.record("2", in: "/articles") != nil)
        remote.isOnline = false
        var filtered = SyncOptions()
        filtered.query = ["filter[title]": "Sails"]
        let articles = Collection<Article>(url: "/articles", sync: cache)
        try await articles.fetch(readPolicy: .localOnly, options: filtered)
        #expect(articles.pluck("title") == ["Sails"])
        filtered.query = ["filter[author]": "9"]
        try await articles.fetch(readPolicy: .localOnly, options: filtered)
        #expect(articles.length == 2)
    }

    @Test func aSparseFieldsetKeepsTheStoredFieldsItLeavesOut() async throws {
        let (cache, remote) = try await fetchedOnline()
        remote.serve(
            ["data": [JSONAPIOfflineModels.resource("articles", "1", ["title": "Engines, 2nd ed."])]],
            at: "/articles"
        )
        var sparse = SyncOptions()
        sparse.resources.fields = ["articles": ["title"]]

        try await Collection<Article>(url: "/articles", sync: cache).fetch(options: sparse)

        let stored = try #require(try await cache.local.record("1", in: "/articles"))
        #expect(stored["attributes"] == ["title": "Engines, 2nd ed.", "body": "Steam", "version": 3])
        #expect(stored["relationships"]?["author"] == JSONAPIOfflineModels.link("authors", "9"))
    }
}
