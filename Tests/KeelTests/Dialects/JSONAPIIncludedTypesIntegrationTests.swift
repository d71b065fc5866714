import Foundation
import Keel
import KeelTestServer
import Testing

/// `included` resources whose type no relation of the fetched class names, against Rails
/// with ActiveModelSerializers' `:json_api` adapter: a type the store knows reaches its live
/// queries, an unknown one stays in the answer.
@MainActor
struct JSONAPIIncludedTypesIntegrationTests {
    typealias Comment = JSONAPIRailsIntegrationTests.Comment

    /// Articles as a list screen reads them: no relations declared.
    final class Headline: Model {
        override class var urlRoot: String? { "/jsonapi/articles" }
        override class var wireFormat: WireFormat { .jsonAPI(type: "articles", keys: KeyMapping(.dasherized)) }
    }

    private func seededArticle(title: String) async throws -> JSONValue {
        let sync = RESTSync(baseURL: try await RailsTestServer.shared.baseURL)
        let (_, article) = try await JSONAPIRailsIntegrationTests.seed(sync, title: title)
        return article.id ?? nil
    }

    @Test func includedResourcesOfARegisteredClassReachItsLiveQueries() async throws {
        let title = "Registry-\(UUID())"
        let articleID = try await seededArticle(title: title)
        let store = Store(sync: RESTSync(baseURL: try await RailsTestServer.shared.baseURL))
        store.register(Comment.self)
        let comments = store.query(Comment.self, filter: .attribute("articleId", equals: articleID))
        #expect(comments.count == 0)

        let headlines = store.collection(Headline.self)
        var options = SyncOptions()
        options.query = ["filter[title]": title]
        options.resources.include = ["comments"]
        try await headlines.fetch(options: options)

        #expect(headlines.length == 1)
        #expect(comments.models.compactMap { $0["body"]?.stringValue }.sorted() == ["First", "Second"])
        for comment in comments.models {
            #expect(store.peek(Comment.self, id: comment.id ?? nil) === comment)
        }
    }

    @Test func aHeldModelsOwnFetchMergesIncludedResourcesOfKnownTypes() async throws {
        let title = "Registry-held-\(UUID())"
        let articleID = try await seededArticle(title: title)
        let store = Store(sync: RESTSync(baseURL: try await RailsTestServer.shared.baseURL))
        store.register(Comment.self)
        let headline = try #require(try await store.find(Headline.self, id: articleID))
        let comments = store.query(Comment.self, filter: .attribute("articleId", equals: articleID))
        #expect(comments.count == 0)

        var options = SyncOptions()
        options.resources.include = ["comments"]
        try await headline.fetch(options: options)

        #expect(comments.count == 2)
    }

    @Test func anUnknownIncludedTypeStaysInTheAnswerWithoutAnError() async throws {
        let title = "Registry-unknown-\(UUID())"
        _ = try await seededArticle(title: title)
        let store = Store(sync: RESTSync(baseURL: try await RailsTestServer.shared.baseURL))
        let headlines = store.collection(Headline.self)
        var options = SyncOptions()
        options.query = ["filter[title]": title]
        options.resources.include = ["comments"]
        try await headlines.fetch(options: options)

        #expect(headlines.length == 1)
        #expect(store.identityMap.modelType(forResourceType: "comments") == nil)
        let included = headlines.lastResponse?.jsonAPIIncluded ?? []
        #expect(included.count == 2)
        #expect(included.allSatisfy { $0["type"] == "comments" })
    }
}
