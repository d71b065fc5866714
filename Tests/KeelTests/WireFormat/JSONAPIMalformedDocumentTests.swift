import Keel
import Testing

/// Malformed JSON:API documents as the one-pass reader meets them.
///
/// A resource without a `type` or an `id`, an `id` of the wrong kind, an `included` that is
/// no list, and a resource listed twice: each either reads as the rules say or fails with an
/// unmappable response that names its place, leaving the collection and the identity map as
/// they were.
@MainActor
struct JSONAPIMalformedDocumentTests {
    typealias Author = JSONAPICompoundDocumentTests.API.Author
    typealias Article = JSONAPICompoundDocumentTests.API.Article

    /// An identity map that knows `people`, and a collection of articles built through it
    /// that fetches `document`, holding article 1 already.
    private func articles(fetching document: JSONValue) throws -> (map: IdentityMap, articles: Collection<Article>) {
        let map = IdentityMap()
        try map.registerResourceType(for: Author.self, collection: "/people")
        let articles = Collection<Article>(
            factory: map.factory(for: Article.self, collection: "/articles"),
            url: "/articles",
            sync: ScriptedSync(always: SyncResponse(body: document))
        )
        try articles.reset(parsing: ["data": [Self.article(1, author: nil)]])
        return (map, articles)
    }

    /// The key path of the unmappable response the fetch fails with, after checking that it
    /// left the collection with article 1 alone and the map without authors.
    private func failingKeyPath(fetching document: JSONValue) async throws -> String? {
        let (map, articles) = try articles(fetching: document)
        let error = await #expect(throws: SyncError.self) { _ = try await articles.fetch() }
        #expect(articles.models.map(\.attributes) == [["id": 1, "title": "A1"]])
        #expect(map.existing(Author.self, id: 7, in: "/people") == nil)
        guard case .unmappableResponse(let keyPath, _) = error else {
            Issue.record("expected an unmappable response, got \(String(describing: error))")
            return nil
        }
        return keyPath
    }

    private nonisolated static func article(_ id: Int, author: JSONValue?) -> JSONValue {
        var resource: JSONObject = ["type": "articles", "id": .string(String(id)), "attributes": ["title": "A\(id)"]]
        if let author { resource["relationships"] = ["author": ["data": author]] }
        return .object(resource)
    }

    private nonisolated static let linkage: JSONValue = ["type": "people", "id": "7"]

    @Test func anIncludedResourceWithoutTypeIsNotFoundSoItsLinkageReadsTheIDOnly() throws {
        let (map, articles) = try articles(fetching: .null)
        let document: JSONValue = [
            "data": [Self.article(2, author: Self.linkage)],
            "included": [["id": "7", "attributes": ["name": "Ada"]]],
        ]

        try articles.reset(parsing: document)

        #expect(articles.first?["authorId"] == 7)
        #expect(articles.first?[Article.author]?.attributes == ["id": 7])
        #expect(try map.mergeIncluded(from: document).isEmpty)
    }

    @Test func aPrimaryResourceWithoutTypeReadsAsTheCollectionsClass() throws {
        let (_, articles) = try articles(fetching: .null)

        try articles.reset(parsing: ["data": [["id": "2", "attributes": ["title": "A2"]]]])

        #expect(articles.models.map(\.attributes) == [["id": 2, "title": "A2"]])
    }

    @Test func aResourceWithoutIDOrAttributesReadsWithoutThem() throws {
        let (_, articles) = try articles(fetching: .null)

        try articles.reset(parsing: [
            "data": [["type": "articles", "attributes": ["title": "A2"]], ["type": "articles", "id": "3"]]
        ])

        #expect(articles.models.map(\.attributes) == [["title": "A2"], ["id": 3]])
        #expect(articles.first?.isNew == true)
    }

    @Test func anIDOfTheWrongKindIsNamedByItsResource() async throws {
        for id: JSONValue in [true, 1.5, ["7"], ["id": "7"]] {
            let document: JSONValue = [
                "data": [Self.article(1, author: nil), ["type": "articles", "id": id, "attributes": ["title": "B"]]]
            ]
            #expect(try await failingKeyPath(fetching: document) == "data[1].id")
        }
    }

    @Test func aLinkedResourceWhoseIDIsOfTheWrongKindIsNeverFoundByItsLinkage() throws {
        let (map, articles) = try articles(fetching: .null)
        let document: JSONValue = [
            "data": [Self.article(2, author: Self.linkage)],
            "included": [["type": "people", "id": true, "attributes": ["name": "Ada"]]],
        ]

        try articles.reset(parsing: document)

        #expect(articles.first?[Article.author]?.attributes == ["id": 7])
        #expect(
            throws: SyncError.unmappableResponse(
                keyPath: "included[0].id",
                reason: "a resource's id is a string, not true"
            )
        ) {
            try map.mergeIncluded(from: document)
        }
        #expect(map.existing(Author.self, id: 7, in: "/people")?.attributes == ["id": 7])
    }

    @Test func anIncludedThatIsNoListIsUnmappable() async throws {
        for included: JSONValue in [["type": "people", "id": "7"], "people", 7] {
            let document: JSONValue = ["data": [Self.article(2, author: Self.linkage)], "included": included]
            #expect(try await failingKeyPath(fetching: document) == "included")
        }
    }

    @Test func aNullIncludedReadsAsNone() throws {
        let (_, articles) = try articles(fetching: .null)

        try articles.reset(parsing: ["data": [Self.article(2, author: Self.linkage)], "included": nil])

        #expect(articles.first?[Article.author]?.attributes == ["id": 7])
    }

    @Test func aResourceListedTwiceLinksAsOneRecordWithTheFieldsOfBoth() throws {
        let (map, articles) = try articles(fetching: .null)
        let document: JSONValue = [
            "data": [Self.article(2, author: Self.linkage), Self.article(3, author: Self.linkage)],
            "included": [
                ["type": "people", "id": "7", "attributes": ["name": "Ada"]],
                ["type": "people", "id": "7", "attributes": ["email": "ada@example.com"]],
            ],
        ]

        try articles.reset(parsing: document)
        try map.mergeIncluded(from: document)

        let ada = try #require(articles.first?[Article.author])
        #expect(articles.last?[Article.author] === ada)
        #expect(ada.attributes == ["id": 7, "name": "Ada", "email": "ada@example.com"])
    }
}
