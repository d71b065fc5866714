import Foundation
import Keel
import Testing

/// The Django REST framework preset: a stock router's trailing slashes, snake_case keys, PUT
/// updates; and how a collection or one call overrides a class's format.
@MainActor
struct DjangoRESTWireFormatTests {
    enum DRF {
        final class Article: Model {
            override class var urlRoot: String? { "/articles" }
            override class var wireFormat: WireFormat { .djangoREST }
        }
    }

    @Test func recordAndListPathsEndWithASlash() async throws {
        let backend = ScriptedSync { request in
            request.method == .read && request.url.absoluteString == "/articles/"
                ? SyncResponse(body: [["id": 1, "published_at": "2026-11-23T21:57:13.123456Z"]])
                : SyncResponse(status: 201, body: ["id": 1])
        }
        let article = DRF.Article(["title": "t"])
        article.sync = backend
        #expect(try article.url() == "/articles/")
        try await article.save()
        #expect(try article.url() == "/articles/1/")
        try await article.save()
        try await article.destroy()
        let articles = Collection<DRF.Article>(url: "/articles", sync: backend)
        try await articles.fetch()
        #expect(
            backend.requests.map { "\($0.method) \($0.url.absoluteString)" } == [
                "create /articles/", "update /articles/1/", "delete /articles/1/", "read /articles/",
            ]
        )
        #expect(articles.first?["publishedAt"] == "2026-11-23T21:57:13.123456Z")
    }

    @Test func explicitURLsAreUsedAsGiven() async throws {
        let backend = ScriptedSync { _ in SyncResponse(body: ["id": 1]) }
        let article = DRF.Article(["id": 1])
        article.sync = backend
        try await article.fetch(options: SyncOptions(url: "/articles/1/preview"))
        #expect(backend.requests.first?.url.absoluteString == "/articles/1/preview")
    }

    @Test func theReadOnlyIDIsNotSentAndNonFieldErrorsAreModelWide() async throws {
        let backend = ScriptedSync(
            failing: SyncError(
                failing: SyncResponse(
                    status: 400,
                    body: [
                        "non_field_errors": ["Title and body must differ."], "published_at": ["Invalid date."],
                    ]
                )
            )
        )
        let article = DRF.Article(["id": 1, "title": "x", "publishedAt": "soon"])
        article.sync = backend
        await #expect(throws: SyncError.self) { try await article.save() }
        #expect(backend.requests.first?.body == ["title": "x", "published_at": "soon"])
        #expect(article.validationError?.messages == ["Title and body must differ."])
        #expect(article.validationError?["publishedAt"] == ["Invalid date."])
    }

    @Test func nestedObjectsAndErrorPathsAreMappedToo() async throws {
        let backend = ScriptedSync { request throws(SyncError) in
            guard request.method == .read else {
                throw SyncError(
                    failing: SyncResponse(
                        status: 400,
                        body: [
                            "author_info": ["first_name": ["Required."]],
                            "invites": [[:], ["email_address": ["Bad."]]],
                        ]
                    )
                )
            }
            return SyncResponse(body: ["id": 1, "author_info": ["first_name": "Ada"]])
        }
        let article = DRF.Article(["id": 1])
        article.sync = backend
        try await article.fetch()
        #expect(article["authorInfo"] == ["firstName": "Ada"])
        await #expect(throws: SyncError.self) { try await article.save() }
        #expect(backend.requests.last?.body == ["author_info": ["first_name": "Ada"]])
        #expect(article.validationError?["authorInfo.firstName"] == ["Required."])
        #expect(article.validationError?["invites[1].emailAddress"] == ["Bad."])
    }

    @Test func aCollectionOverridesItsModelsFormatAndACallOverridesBoth() async throws {
        let backend = ScriptedSync { request in
            SyncResponse(status: request.method == .create ? 201 : 200, body: ["id": 2, "due_at": "d"])
        }
        let plain = Collection<Model>(url: "/items", sync: backend)
        plain.wireFormat = .djangoREST
        let item = try await plain.create(["dueAt": "d"])
        #expect(backend.requests.last?.url.absoluteString == "/items/")
        #expect(backend.requests.last?.body == ["due_at": "d"])
        #expect(item["dueAt"] == "d")

        try await item.save(options: SyncOptions(wireFormat: .plain))
        #expect(backend.requests.last?.body == ["dueAt": "d", "id": 2])
    }

    @Test func aModelKeepsItsReleasedCollectionsFormat() async throws {
        let backend = ScriptedSync { _ in SyncResponse(status: 201, body: ["id": 3]) }
        var items: Collection<Model>? = Collection<Model>(url: "/items", sync: backend)
        items?.wireFormat = .djangoREST
        let item = try #require(try await items?.create(["x": 1]))
        items = nil
        #expect(try item.url() == "/items/3/")
    }
}
