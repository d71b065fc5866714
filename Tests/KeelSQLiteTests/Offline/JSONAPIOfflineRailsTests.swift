import Foundation
import Keel
import KeelSQLite
import KeelTestServer
import Testing

/// The offline cache's JSON:API reads against Rails 6.1 with ActiveModelSerializers 0.10's
/// `:json_api` adapter (Tests/RailsServer): dasherized names, plural types, and its media
/// type with `charset=utf-8`.
@MainActor
struct JSONAPIOfflineRailsTests {
    final class Author: Model {
        override class var urlRoot: String? { "/jsonapi/authors" }
        override class var wireFormat: WireFormat { .jsonAPI(keys: KeyMapping(.dasherized)) }
    }

    final class Comment: Model {
        static let article = BelongsTo<Article>("article")
        static let author = BelongsTo<Author>("author")
        override class var urlRoot: String? { "/jsonapi/comments" }
        override class var wireFormat: WireFormat { .jsonAPI(keys: KeyMapping(.dasherized)) }
        override class var relations: [any Relation] { [article, author] }
    }

    final class Article: Model {
        static let author = BelongsTo<Author>("author")
        static let comments = HasMany<Comment>("comments")
        override class var urlRoot: String? { "/jsonapi/articles" }
        override class var wireFormat: WireFormat { .jsonAPI(keys: KeyMapping(.dasherized)) }
        override class var relations: [any Relation] { [author, comments] }
    }

    /// What a model shows of an article and its relations.
    private func summary(_ article: Article) -> [JSONValue] {
        [
            article.id ?? nil, article["title"] ?? nil, article["authorId"] ?? nil,
            article[Article.author]?["name"] ?? nil,
            .array(article[Article.comments].map { $0["body"] ?? nil }),
            .array(article[Article.comments].map { $0[Comment.author]?["email"] ?? nil }),
        ]
    }

    /// An article with a title of its own, by Ada, with one comment by her.
    private func seed(on rails: RESTSync) async throws -> (title: String, article: Article, author: Author) {
        let title = "Offline-\(UUID())"
        let author = Author(["name": "Ada", "email": "ada@example.com"])
        author.sync = rails
        try await author.save()
        let article = Article(["title": .string(title), "body": "Engines", "authorId": author.id ?? nil])
        article.sync = rails
        try await article.save()
        let comment = Comment(["body": "First", "articleId": article.id ?? nil, "authorId": author.id ?? nil])
        comment.sync = rails
        try await comment.save()
        return (title, article, author)
    }

    @Test func aListReadWithIncludeOnlineIsReadOfflineWithTheSameModelsAndRelations() async throws {
        try await withTemporaryDirectory { directory in
            let rails = RESTSync(baseURL: try await RailsTestServer.shared.baseURL, timeout: .seconds(60))
            let (title, article, author) = try await seed(on: rails)

            let remote = ReachabilitySwitch(rails)
            var configuration = CachingSync.Configuration()
            for type in [Author.self, Article.self, Comment.self] as [Model.Type] { configuration.register(type) }
            let cache = CachingSync(
                remote: remote,
                local: try SQLiteOfflineStore(fileURL: directory.appending(path: "cache.sqlite")),
                configuration: configuration
            )
            var options = SyncOptions(query: ["filter[title]": title])
            options.resources.include = ["author", "comments", "comments.author"]
            let online = Collection<Article>(url: "/jsonapi/articles", sync: cache)
            try await online.fetch(options: options)
            #expect(
                online.map(summary) == [
                    [article.id ?? nil, .string(title), author.id ?? nil, "Ada", ["First"], ["ada@example.com"]]
                ]
            )

            remote.isReachable = false

            let offline = Collection<Article>(url: "/jsonapi/articles", sync: cache)
            try await offline.fetch(readPolicy: .localOnly, options: options)
            #expect(offline.map(summary) == online.map(summary))
            let single = Article(["id": article.id ?? nil])
            single.sync = cache
            try await single.fetch(options: options)
            let singleSummary: [[JSONValue]] = [summary(single)]
            let expected: [[JSONValue]] = online.map(summary)
            #expect(singleSummary == expected)
        }
    }

    @Test func aStoreReadsOfflineWhatItReadOnlineWithoutRegistration() async throws {
        try await withTemporaryDirectory { directory in
            let rails = RESTSync(baseURL: try await RailsTestServer.shared.baseURL, timeout: .seconds(60))
            let (title, _, _) = try await seed(on: rails)
            let remote = ReachabilitySwitch(rails)
            let file = directory.appending(path: "cache.sqlite")
            let cache = CachingSync(remote: remote, local: try SQLiteOfflineStore(fileURL: file))
            var options = SyncOptions(query: ["filter[title]": title])
            options.resources.include = ["author", "comments", "comments.author"]
            let online = Store(sync: cache).collection(Article.self)
            try await online.fetch(options: options)
            #expect(online.first?[Article.comments].first?[Comment.author]?["email"] == "ada@example.com")

            remote.isReachable = false

            // The app starts again without a network: a new store and cache on the same file.
            let offline = Store(sync: CachingSync(remote: remote, local: try SQLiteOfflineStore(fileURL: file)))
            let articles = offline.collection(Article.self)
            try await articles.fetch(options: options)
            #expect(articles.map(summary) == online.map(summary))
            #expect(articles.first?[Article.author]?["name"] == "Ada")
        }
    }
}
