import Foundation
import Keel
import KeelSQLite
import KeelTestServer
import Testing

/// A JSON:API app offline on the records it fetched, against the test server's
/// djangorestframework-jsonapi resources (its database kept while it is stopped): a list read
/// with `include=` online is read, edited and deleted from offline, and the replay (one
/// Atomic Operations request, or one request per change) leaves the server with the edit and
/// the delete and nothing else changed.
@MainActor
struct JSONAPIOfflineIntegrationTests {
    typealias Author = AtomicReplayModels.Author
    typealias Article = AtomicReplayModels.Article
    typealias Comment = AtomicReplayModels.Comment

    private var includeAll: SyncOptions {
        var options = SyncOptions()
        options.resources.include = ["author", "comments", "comments.author"]
        return options
    }

    /// An author, two articles by them, and a comment on the first, saved on the server.
    private func seed(at baseURL: URL) async throws -> [Article] {
        let api = RESTSync(baseURL: baseURL, timeout: .seconds(60))
        let author = Author(["name": "Ada", "email": "ada@example.com"])
        author.sync = api
        try await author.save()
        var articles: [Article] = []
        for (title, body) in [("Engines", "Steam"), ("Sails", "Wind")] {
            let article = Article(["title": .string(title), "body": .string(body), "authorId": author.id ?? nil])
            article.sync = api
            try await article.save()
            articles.append(article)
        }
        let comment = Comment(["body": "First!", "articleId": articles[0].id ?? nil, "authorId": author.id ?? nil])
        comment.sync = api
        try await comment.save()
        return articles
    }

    /// What a model shows of an article and its relations.
    private func summary(_ article: Article) -> [JSONValue] {
        [
            article.id ?? nil, article["title"] ?? nil, article["body"] ?? nil, article["authorId"] ?? nil,
            article[Article.author]?["name"] ?? nil,
            .array(article[Article.comments].map { $0["body"] ?? nil }),
            .array(article[Article.comments].map { $0[Comment.author]?["email"] ?? nil }),
        ]
    }

    /// The server's articles as another client reads them: id, title, body, author id.
    private func serverArticles(at baseURL: URL) async throws -> [[JSONValue]] {
        let request = SyncRequest(
            method: .read,
            url: URL(string: "/jsonapi/articles")!,
            headers: ["Accept": JSONAPIFormat.mediaType]
        )
        let list = try await RESTSync(baseURL: baseURL).perform(request).body?["data"]?.arrayValue ?? []
        return list.map {
            [
                $0["id"] ?? nil, $0["attributes"]?["title"] ?? nil, $0["attributes"]?["body"] ?? nil,
                $0["relationships"]?["author"]?["data"]?["id"] ?? nil,
            ]
        }
    }

    @Test(arguments: [true, false])
    func aListReadWithIncludeIsReadEditedAndDeletedOfflineThenReplayed(atomically: Bool) async throws {
        try await withTemporaryDirectory { directory in
            let server = try await RestartableServer(directory: directory)
            let seeded = try await seed(at: server.baseURL)
            var configuration = CachingSync.Configuration()
            for type in [Author.self, Article.self, Comment.self] as [Model.Type] { configuration.register(type) }
            if atomically { configuration.atomicOperations = AtomicReplayModels.operations }
            let cache = CachingSync(
                remote: RESTSync(baseURL: server.baseURL, timeout: .seconds(60)),
                local: try SQLiteOfflineStore(fileURL: directory.appending(path: "cache.sqlite")),
                configuration: configuration
            )
            let online = Collection<Article>(url: "/jsonapi/articles", sync: cache)
            try await online.fetch(options: includeAll)
            #expect(online.length == 2)
            let before = try await serverArticles(at: server.baseURL)

            await server.stop()

            let offline = Collection<Article>(url: "/jsonapi/articles", sync: cache)
            try await offline.fetch(readPolicy: .localOnly, options: includeAll)
            #expect(offline.map(summary) == online.map(summary))
            #expect(offline.first?[Article.comments].pluck("body") == ["First!"])
            let single = Article(["id": seeded[0].id ?? nil])
            single.sync = cache
            try await single.fetch(options: includeAll)  // remoteFirst: the server is down
            #expect(summary(single) == online.first.map(summary))

            let edited = try #require(offline.get(seeded[0].id ?? nil))
            try await edited.save(["title": "Engines, revised"], patch: true)
            try await #require(offline.get(seeded[1].id ?? nil)).destroy()
            #expect(edited.syncState == .pending)
            #expect(try await cache.queuedChanges().map(\.method) == [.patch, .delete])

            try await server.start()
            let report = try await cache.replay()

            #expect(report.sent.count == 2 && report.failures.isEmpty && report.remaining == 0)
            #expect(report.sentAtomically == (atomically ? 2 : 0))
            var expected = before.filter { $0[0] != .string(String(seeded[1].id?.intValue ?? 0)) }
            expected[0][1] = "Engines, revised"
            #expect(try await serverArticles(at: server.baseURL) == expected)
            let comments = SyncRequest(
                method: .read,
                url: URL(string: "/jsonapi/comments")!,
                headers: ["Accept": JSONAPIFormat.mediaType]
            )
            let serverComments = try await RESTSync(baseURL: server.baseURL).perform(comments).body?["data"]
            #expect(serverComments?.arrayValue?.map { $0["attributes"]?["body"] } == ["First!"])

            let local = Collection<Article>(url: "/jsonapi/articles", sync: cache)
            try await local.fetch(readPolicy: .localOnly, options: includeAll)
            let fresh = Collection<Article>(url: "/jsonapi/articles", sync: RESTSync(baseURL: server.baseURL))
            try await fresh.fetch(options: includeAll)
            #expect(local.map(summary) == fresh.map(summary))
            #expect(local.pluck("title") == ["Engines, revised"])
            await server.stop()
        }
    }

    @Test func aStoreReadsOfflineWhatItReadOnlineWithoutRegistration() async throws {
        try await withTemporaryDirectory { directory in
            let server = try await RestartableServer(directory: directory)
            _ = try await seed(at: server.baseURL)
            let file = directory.appending(path: "cache.sqlite")
            let online = try Store.offline(baseURL: server.baseURL, fileURL: file)
            let fetched = online.collection(Article.self)
            try await fetched.fetch(options: includeAll)
            #expect(fetched.length == 2)
            var search = SyncOptions()
            search.query = ["search": "Eng"]
            try await fetched.fetch(options: search)
            #expect(fetched.pluck("title") == ["Engines"])
            try await fetched.fetch(options: includeAll)

            await server.stop()

            // The app starts again without a network: a new store on the same file.
            let offline = try Store.offline(baseURL: server.baseURL, fileURL: file)
            let articles = offline.collection(Article.self)
            try await articles.fetch(options: includeAll)
            #expect(articles.map(summary) == fetched.map(summary))
            #expect(articles.first?[Article.comments].first?[Comment.author]?["email"] == "ada@example.com")
            // DRF's stock search is the server's to evaluate: offline it is an error, not a guess.
            let error = await #expect(throws: SyncError.self) { _ = try await articles.fetch(options: search) }
            guard case .unevaluableQuery(let parameter, _)? = error else {
                Issue.record("expected unevaluableQuery, got \(String(describing: error))")
                return
            }
            #expect(parameter == "search")
        }
    }
}
