import Foundation
import Keel
import KeelTestServer
import Testing

/// Compound documents read through an ``IdentityMap`` (here a ``Store``'s), against Rails with
/// ActiveModelSerializers' `:json_api` adapter: included resources reach the live instances
/// by `(type, id)`, and a sparse record sets only what it carries.
@MainActor
struct JSONAPIIdentityMapTests {
    typealias Author = JSONAPIRailsIntegrationTests.Author
    typealias Article = JSONAPIRailsIntegrationTests.Article
    typealias Comment = JSONAPIRailsIntegrationTests.Comment

    /// An author and an article by them with two comments, saved outside any map.
    private func seed(title: String) async throws -> (author: JSONValue, article: JSONValue) {
        let sync = RESTSync(baseURL: try await RailsTestServer.shared.baseURL)
        let (author, article) = try await JSONAPIRailsIntegrationTests.seed(sync, title: title)
        return (author.id ?? nil, article.id ?? nil)
    }

    @Test func aCompoundFetchLeavesOneInstancePerRecord() async throws {
        let title = "Identity-\(UUID())"
        let seeded = try await seed(title: title)
        let sync = CountingSync(RESTSync(baseURL: try await RailsTestServer.shared.baseURL))
        let store = Store(sync: sync)
        let author = try #require(try await store.find(Author.self, id: seeded.author))

        let articles = store.collection(Article.self)
        var options = SyncOptions()
        options.query = ["filter[title]": title]
        options.resources.include = ["author", "comments.author"]
        try await articles.fetch(options: options)

        #expect(sync.count == 2)
        let article = try #require(articles.first)
        #expect(article[Article.author] === author)
        let comments = article[Article.comments]
        #expect(comments.length == 2)
        #expect(comments.allSatisfy { $0[Comment.author] === author })
        #expect(comments.allSatisfy { $0[Comment.article] === article })
        #expect(store.peek(Article.self, id: seeded.article) === article)
        for comment in comments {
            #expect(store.peek(Comment.self, id: comment.id ?? nil) === comment)
        }
    }

    @Test func includedResourcesUpdateLiveInstancesAndKeepWhatTheyLack() async throws {
        let title = "Sparse-identity-\(UUID())"
        let seeded = try await seed(title: title)
        let sync = RESTSync(baseURL: try await RailsTestServer.shared.baseURL)
        let store = Store(sync: sync)
        let author = try #require(try await store.find(Author.self, id: seeded.author))
        #expect(author["email"] == "ada@example.com")

        let elsewhere = Author(["id": seeded.author])
        elsewhere.sync = sync
        try await elsewhere.save(["name": "Ada Lovelace"], patch: true)

        let article = try #require(try await store.find(Article.self, id: seeded.article))
        var options = SyncOptions()
        options.resources.include = ["author"]
        options.resources.fields = ["articles": ["title", "author"], "authors": ["name"]]
        try await article.fetch(options: options)

        #expect(article[Article.author] === author)
        #expect(author["name"] == "Ada Lovelace")
        #expect(author["email"] == "ada@example.com")
        #expect(article["body"] == "Engines")
        #expect(article[Article.comments].length == 2)
    }
}
