import Keel
import KeelTestServer
import Testing

/// Response mappings against a stock Django REST framework app: the same serializer answers
/// a bare list on `/drf/articles/` and a paginated `{"count", "next", "results"}` envelope on
/// `/drf/paged-articles/`, and one class reads both with a mapping for the paginated route.
@MainActor
struct ResponseMappingServerTests {
    final class Article: Model {
        override class var wireFormat: WireFormat { WireFormat(keys: .snakeCase, pathSuffix: "/") }
    }

    @Test func aPaginatedRouteIsReadAtResultsAndTheBareListAsItIs() async throws {
        let server = try await TestServer.dedicated(to: "response-mappings")
        let api = RESTSync(baseURL: server.baseURL)
        let all = Collection<Article>(url: "/drf/articles", sync: api)
        for index in 1...4 { try await all.create(["title": .string("Article \(index)")]) }

        let paged = Collection<Article>(url: "/drf/paged-articles", sync: api)
        await #expect(throws: SyncError.self) { _ = try await paged.fetch() }
        Article.responseMappings.register(ResponseMapping(route: "/drf/paged-articles/", keyPath: "results"))
        try await paged.fetch()
        #expect(paged.pluck("title") == (1...3).map { .string("Article \($0)") })
        #expect(paged.lastResponse?.body?["count"] == 4)

        try await all.fetch()
        #expect(all.pluck("title") == (1...4).map { .string("Article \($0)") })
        #expect(all.first?["createdAt"]?.stringValue != nil)
    }
}
