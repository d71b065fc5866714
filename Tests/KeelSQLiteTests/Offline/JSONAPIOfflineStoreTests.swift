import Foundation
import Keel
import KeelSQLite
import Testing

/// A `Store` over the offline cache tells it the JSON:API classes it registers, so an app
/// reads offline what it read online without telling the cache its resource types.
@MainActor
struct JSONAPIOfflineStoreTests {
    typealias Article = JSONAPIOfflineModels.Article
    typealias Author = JSONAPIOfflineModels.Author
    typealias Comment = JSONAPIOfflineModels.Comment

    private var includeAll: SyncOptions {
        var options = SyncOptions()
        options.resources.include = ["author", "comments", "comments.author"]
        return options
    }

    /// What a model shows of an article and its relations.
    private func summary(_ article: Article) -> [JSONValue] {
        [
            article.id ?? nil, article["title"] ?? nil, article[Article.author]?["name"] ?? nil,
            .array(article[Article.comments].map { $0["body"] ?? nil }),
            .array(article[Article.comments].map { $0[Comment.author]?["name"] ?? nil }),
        ]
    }

    @Test func aStoreReadsOfflineWhatItReadOnlineWithoutRegistration() async throws {
        try await withTemporaryDirectory { directory in
            let remote = JSONAPIRemote()
            remote.serve(JSONAPIOfflineModels.listDocument, at: "/articles")
            let file = directory.appending(path: "cache.sqlite")
            let online = try Store.offline(remote: remote, fileURL: file)
            let fetched = online.collection(Article.self)
            try await fetched.fetch(options: includeAll)
            remote.isOnline = false

            // The app starts again, offline: a new store on the same file.
            let offline = try Store.offline(remote: remote, fileURL: file)
            let articles = offline.collection(Article.self)
            try await articles.fetch(options: includeAll)

            #expect(articles.map(summary) == fetched.map(summary))
            #expect(articles.first?[Article.comments].pluck("body") == ["First!"])
            #expect(try await offline.cachingSync?.local.record("31", in: "/comments") != nil)
        }
    }

    @Test func aCacheLearnsTheClassesAStoreRegistersAfterItWasMade() throws {
        var configuration = CachingSync.Configuration()
        configuration.resourceTypes["authors"] = "/people"
        let cache = CachingSync(
            remote: JSONAPIRemote(),
            local: try SQLiteOfflineStore.inMemory(),
            configuration: configuration
        )
        let store = Store(sync: LoggingSync(DeduplicatingSync(cache)) { _ in })
        #expect(cache.resourceTypes == ["authors": "/people"])

        _ = store.collection(Article.self)

        // The class, the targets of its relations; the app's own path wins.
        #expect(cache.resourceTypes == ["articles": "/articles", "comments": "/comments", "authors": "/people"])
        #expect(cache.foreignKeys.count == 2)
        #expect(Set(cache.foreignKeys.map(\.collection)) == ["/articles", "/comments"])
    }

    @Test func aTypeTheAppRegistersInTheIdentityMapReachesTheCache() throws {
        let cache = try JSONAPIOfflineModels.cache(remote: JSONAPIRemote(), registering: [])
        let store = Store(sync: cache)

        try store.identityMap.registerResourceType("writers", for: Author.self, collection: "/writers")

        #expect(cache.resourceTypes["writers"] == "/writers")
    }

    @Test func anIncludedResourceOfAnUnknownTypeIsStoredUnderItsDefaultRoute() async throws {
        let remote = JSONAPIRemote()
        var document = JSONAPIOfflineModels.listDocument.objectValue ?? [:]
        document["data"] = [
            JSONAPIOfflineModels.resource(
                "articles",
                "1",
                ["title": "Engines"],
                relationships: ["editor": JSONAPIOfflineModels.link("people", "5")]
            )
        ]
        document["included"] = [JSONAPIOfflineModels.resource("people", "5", ["name": "Lin"])]
        remote.serve(.object(document), at: "/jsonapi/articles")
        let cache = try JSONAPIOfflineModels.cache(remote: remote, registering: [])
        var request = SyncRequest(
            method: .read,
            url: URL(string: "/jsonapi/articles")!,
            headers: ["Accept": JSONAPIFormat.mediaType]
        )
        request.query = [URLQueryItem(name: "include", value: "editor")]

        _ = try await cache.perform(request)
        remote.isOnline = false

        #expect(try await cache.local.record("5", in: "/jsonapi/people")?["attributes"] == ["name": "Lin"])
        let body = try await cache.perform(request).body
        #expect(body?["included"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["5"])
    }

    @Test func aDrupalTypeIsStoredUnderItsEntityTypeAndBundle() async throws {
        let remote = JSONAPIRemote()
        remote.serve(
            [
                "data": [
                    JSONAPIOfflineModels.resource(
                        "node--article",
                        "a1",
                        ["title": "Engines"],
                        relationships: ["uid": JSONAPIOfflineModels.link("user--user", "u1")]
                    )
                ],
                "included": [JSONAPIOfflineModels.resource("user--user", "u1", ["name": "ada"])],
            ],
            at: "/jsonapi/node/article"
        )
        let cache = try JSONAPIOfflineModels.cache(remote: remote, registering: [])
        let request = SyncRequest(
            method: .read,
            url: URL(string: "/jsonapi/node/article")!,
            headers: ["Accept": JSONAPIFormat.mediaType]
        )

        _ = try await cache.perform(request)

        #expect(try await cache.local.record("u1", in: "/jsonapi/user/user") != nil)
    }

    @Test func anIncludedResourceStoredBeforeItsTypeWasRegisteredIsFoundAfterwards() async throws {
        let remote = JSONAPIRemote()
        remote.serve(JSONAPIOfflineModels.listDocument, at: "/articles")
        let cache = try JSONAPIOfflineModels.cache(remote: remote, registering: [])
        let online = Collection<Article>(url: "/articles", sync: cache)
        try await online.fetch(options: includeAll)
        remote.isOnline = false

        // Authors now live under another path than the one they were stored under.
        let store = Store(sync: cache)
        store.register(Author.self, path: "/writers")
        let articles = store.collection(Article.self)
        try await articles.fetch(options: includeAll)

        #expect(articles.map(summary) == online.map(summary))
    }
}
