import Foundation
import Keel
import KeelTestServer
import Testing

/// The Django REST framework preset against a stock `ModelViewSet` on a `DefaultRouter`
/// (`/drf/articles/`): every verb, typed values and validation errors, with no glue code.
@MainActor
struct DjangoRESTIntegrationTests {
    final class Article: Model {
        static let title = AttributeKey<String>("title")
        static let publishedAt = AttributeKey<Date>("publishedAt")
        static let rating = AttributeKey<Decimal>("rating")
        static let reference = AttributeKey<UUID>("reference")
        static let website = AttributeKey<URL>("website")

        override class var urlRoot: String? { "/drf/articles" }
        override class var wireFormat: WireFormat { .djangoREST }
    }

    private func articles() async throws -> Collection<Article> {
        let server = try await TestServer.shared
        return Collection<Article>(url: "/drf/articles", sync: RESTSync(baseURL: server.baseURL))
    }

    @Test func createFetchUpdatePatchAndDestroyWithTypedValues() async throws {
        let articles = try await articles()
        let published = try #require(Date(json: "2026-11-23T21:57:13.123456Z"))
        let article = try await articles.create([
            "title": "Dune", "body": "Spice", "publishedAt": published.json, "rating": "4.50",
            "website": "https://example.org/dune",
        ])
        let id = try #require(article.id)
        #expect(article[Article.publishedAt] == published)
        #expect(article["publishedAt"] == "2026-11-23T21:57:13.123456Z")
        #expect(article[Article.rating] == Decimal(string: "4.5"))
        #expect(article[Article.reference] != nil)
        #expect(article["createdAt"]?.stringValue?.hasSuffix("Z") == true)

        try await article.save(["title": "Dune Messiah"])
        let fetched = Article(["id": id])
        fetched.sync = articles.sync
        try await fetched.fetch()
        #expect(fetched[Article.title] == "Dune Messiah")
        try await fetched.save(["body": "Sandworms"], patch: true)
        try await article.fetch()
        #expect(article["body"] == "Sandworms")
        #expect(article[Article.publishedAt] == published)

        try await articles.fetch()
        #expect(articles.get(id) === article)
        #expect(articles.get(id)?["body"] == "Sandworms")

        try await article.destroy(wait: true)
        await #expect(throws: SyncError.self) { try await fetched.fetch() }
        #expect(articles.get(id) == nil)
    }

    @Test func serverValidationErrorsAreHandledLikeLocalOnes() async throws {
        let articles = try await articles()
        let article = try await articles.create(["title": "Same", "body": "Other"])
        var events: [String] = []
        article.on("invalid") { _ in events.append("invalid") }
        article.on("error") { _ in events.append("error") }
        await #expect(throws: SyncError.self) { try await article.save(["body": "Same"], wait: true) }
        #expect(article.validationError?.messages == ["The body must not repeat the title."])
        #expect(article["body"] == "Other")
        await #expect(throws: SyncError.self) { try await article.save(["title": ""], wait: true) }
        #expect(article.validationError?["title"] == ["This field may not be blank."])
        #expect(events == ["invalid", "error", "invalid", "error"])
        try await article.destroy()
    }
}
