import Foundation
import Keel
import KeelTestServer
import Testing

/// ``WireFormat/drupalJSONAPI(type:keys:)`` and ``DrupalSession`` against the test server's
/// emulation of Drupal 10 core's JSON:API module (`/jsonapi/node/article`): UUID ids,
/// `node--article` types, `drupal_internal__nid`, `field_tags`, `filter[…]`,
/// `page[offset]`/`page[limit]` and the CSRF token on writes.
@MainActor
struct JSONAPIDrupalIntegrationTests {
    final class User: Model {
        override class var wireFormat: WireFormat { .drupalJSONAPI(type: "user--user") }
    }

    final class Tag: Model {
        override class var wireFormat: WireFormat { .drupalJSONAPI(type: "taxonomy_term--tags") }
    }

    final class Article: Model {
        static let author = BelongsTo<User>("uid", foreignKey: "authorID")
        static let tags = HasMany<Tag>("field_tags")
        override class var urlRoot: String? { "/jsonapi/node/article" }
        override class var wireFormat: WireFormat { .drupalJSONAPI(type: "node--article") }
        override class var relations: [any Relation] { [author, tags] }
    }

    /// The test server's tags 3 (`keel`) and 4 (`swift`): their UUIDs are fixed.
    private let keel = "eb087736-1a26-5d4b-bf5f-e9eb40a9cf7f"
    private let swift = "cc3b481b-75a6-58f9-a3f3-9609b9d5d707"

    private func session() async throws -> DrupalSession {
        let server = try await TestServer.dedicated(to: "drupal")
        let drupal = DrupalSession(RESTSync(baseURL: server.baseURL))
        try await drupal.login(name: "admin", password: "admin")
        return drupal
    }

    @Test func articlesThroughEveryVerbWithTheCSRFToken() async throws {
        let drupal = try await session()
        let article = Article([
            "title": "Hello", "body": ["value": "<p>Hi</p>", "format": "basic_html"],
            "field_tags": [["id": .string(keel)]],
        ])
        article.sync = drupal
        try await article.save()
        let id = try #require(article.id?.stringValue)
        #expect(UUID(uuidString: id) != nil)
        #expect(article["drupal_internal__nid"]?.intValue != nil)
        #expect(article[Article.tags].pluck("id") == [.string(keel)])
        #expect(article["authorID"]?.stringValue?.isEmpty == false)

        try await article.save(["title": "Hello again"], patch: true)
        try await article.save(["status": false])
        let fetched = Article(["id": .string(id)])
        fetched.sync = drupal
        try await fetched.fetch()
        #expect(fetched["title"] == "Hello again")
        #expect(fetched["status"] == false)
        #expect(fetched.resourceLinks?["self"]?["href"]?.stringValue?.hasSuffix(id) == true)

        try await article.destroy(wait: true)
        let gone = await #expect(throws: SyncError.self) { try await fetched.fetch() }
        #expect(gone?.status == 404)
    }

    @Test func writesWithoutTheTokenAreRefused() async throws {
        let server = try await TestServer.dedicated(to: "drupal")
        let anonymous = Article(["title": "Nobody"])
        anonymous.sync = RESTSync(baseURL: server.baseURL)
        let error = await #expect(throws: SyncError.self) { try await anonymous.save() }
        #expect(error?.status == 403)
    }

    @Test func aCompoundFetchFillsTheAuthorAndTags() async throws {
        let drupal = try await session()
        let article = Article(["title": "Compound", "field_tags": [["id": .string(keel)], ["id": .string(swift)]]])
        article.sync = drupal
        try await article.save()

        let fetched = Article(["id": article.id ?? nil])
        fetched.sync = drupal
        var options = SyncOptions()
        options.resources.include = ["uid", "field_tags"]
        options.resources.fields = ["node--article": ["title", "uid", "field_tags"]]
        try await fetched.fetch(options: options)

        #expect(fetched[Article.author]?["display_name"] == "admin")
        #expect(fetched[Article.tags].pluck("name") == ["keel", "swift"])
        #expect(fetched["drupal_internal__nid"] == nil)
        #expect(fetched["title"] == "Compound")
    }

    @Test func violationsReachTheFieldsWithoutDrupalsPrefix() async throws {
        let drupal = try await session()
        let article = Article(["title": ""])
        article.sync = drupal
        let error = await #expect(throws: SyncError.self) { try await article.save() }
        #expect(error?.status == 422)
        #expect(article.validationError?["title"] == ["This value should not be null."])
    }

    @Test func filteredPagesFollowTheOffsetLinksToTheEnd() async throws {
        let drupal = try await session()
        let tag = "Paged-\(UUID().uuidString.prefix(8))"
        for _ in 1...5 {
            let article = Article(["title": .string(tag)])
            article.sync = drupal
            try await article.save()
        }
        let articles = Collection<Article>(url: "/jsonapi/node/article?filter[title]=\(tag)", sync: drupal)
        let pages = Paginator(articles, style: .jsonAPIOffset(), pageSize: 2)
        try await pages.loadFirstPage()
        var loaded = 1
        while pages.hasNextPage {
            try await pages.loadNextPage()
            loaded += 1
        }
        #expect(loaded == 3)
        #expect(articles.length == 5)
        #expect(Set(articles.pluck("title")) == [.string(tag)])
        let second = try await pages.loadPage(2)
        #expect(second.map(\.cid) == articles[2..<4].map(\.cid))
    }
}
