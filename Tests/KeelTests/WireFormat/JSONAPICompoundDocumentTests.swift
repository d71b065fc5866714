import Foundation
import Keel
import Testing

/// Compound documents read as `keel-bench`'s `jsonapi_compound` reads them.
///
/// The articles are read through an identity map, each `author` linked to its included
/// resource by `(type, id)`, then the included resources are merged as a ``Store`` merges
/// them. These are the places where a cheaper read could part from the rules: repeated and
/// unlinked authors, sparse authors, linkage to resources the document does not include,
/// cycles, ids at the edge of `Int`, members a format does not read, and the place an error
/// names.
@MainActor
struct JSONAPICompoundDocumentTests {
    enum API {
        final class Author: Model {
            static let articles = HasMany<Article>("articles")
            override class var urlRoot: String? { "/people" }
            override class var wireFormat: WireFormat { .jsonAPI(type: "people") }
            override class var relations: [any Relation] { [articles] }
        }

        final class Article: Model {
            static let author = BelongsTo<Author>("author", foreignKey: "authorId")
            override class var urlRoot: String? { "/articles" }
            override class var wireFormat: WireFormat { .jsonAPI(type: "articles") }
            override class var relations: [any Relation] { [author] }
        }

        /// An author whose format never reads `secret`, and reads `draft` only locally.
        final class GuardedAuthor: Model {
            override class var urlRoot: String? { "/guarded" }
            override class var wireFormat: WireFormat {
                var format = WireFormat.jsonAPI(type: "guarded")
                format.roles["secret"] = .sendOnly
                format.roles["draft"] = .localOnly
                return format
            }
        }
    }

    typealias Author = API.Author
    typealias Article = API.Article

    /// An identity map that knows `people`, and a collection of articles built through it.
    private func reading() throws -> (map: IdentityMap, articles: Collection<Article>) {
        let map = IdentityMap()
        try map.registerResourceType(for: Author.self, collection: "/people")
        return (map, Collection<Article>(factory: map.factory(for: Article.self, collection: "/articles")))
    }

    private nonisolated static func article(_ id: Int, author: JSONValue?) -> JSONValue {
        var resource: JSONObject = ["type": "articles", "id": .string(String(id)), "attributes": ["title": "A\(id)"]]
        if let author { resource["relationships"] = ["author": ["data": author]] }
        return .object(resource)
    }

    private nonisolated static func author(_ id: Int, _ attributes: JSONObject) -> JSONValue {
        ["type": "people", "id": .string(String(id)), "attributes": .object(attributes)]
    }

    private nonisolated static func linkage(_ id: Int) -> JSONValue {
        ["type": "people", "id": .string(String(id))]
    }

    @Test func anAuthorLinkedByTwoArticlesIsOneInstanceThatBothForeignKeysName() throws {
        let (map, articles) = try reading()
        let document: JSONValue = [
            "data": [Self.article(1, author: Self.linkage(7)), Self.article(2, author: Self.linkage(7))],
            "included": [Self.author(7, ["name": "Ada", "email": "ada@example.com"])],
        ]

        try articles.reset(parsing: document)
        let merged = try map.mergeIncluded(from: document)

        let first = try #require(articles.first?[Article.author])
        #expect(articles.last?[Article.author] === first)
        #expect(merged.count == 1 && merged.first === first)
        #expect(map.existing(Author.self, id: 7, in: "/people") === first)
        #expect(articles.models.map { $0["authorId"] } == [7, 7])
        #expect(first.attributes == ["id": 7, "name": "Ada", "email": "ada@example.com"])
        #expect(first.isNew == false)
    }

    @Test func anIncludedAuthorNoArticleLinksIsMergedAsANewSyncedModel() throws {
        let (map, articles) = try reading()
        let document: JSONValue = [
            "data": [Self.article(1, author: Self.linkage(7))],
            "included": [Self.author(7, ["name": "Ada"]), Self.author(9, ["name": "Grace"])],
        ]

        try articles.reset(parsing: document)
        #expect(map.existing(Author.self, id: 9, in: "/people") == nil)
        let merged = try map.mergeIncluded(from: document)

        let grace = try #require(map.existing(Author.self, id: 9, in: "/people"))
        #expect(merged.map { $0.id ?? nil } == [7, 9])
        #expect(merged.last === grace)
        #expect(grace["name"] == "Grace")
        #expect(grace.isNew == false)
        #expect(grace.unsavedChanges == nil)
    }

    @Test func aSparseIncludedAuthorKeepsWhatItDoesNotCarry() throws {
        let (map, articles) = try reading()
        let live = map.model(
            Author.self,
            collection: "/people",
            attributes: ["id": 7, "name": "A. Lovelace", "email": "ada@example.com"]
        )
        let document: JSONValue = [
            "data": [Self.article(1, author: Self.linkage(7))],
            "included": [Self.author(7, ["name": "Ada"])],
        ]

        try articles.reset(parsing: document)
        try map.mergeIncluded(from: document)

        #expect(articles.first?[Article.author] === live)
        #expect(live.attributes == ["id": 7, "name": "Ada", "email": "ada@example.com"])
    }

    @Test func aLinkageToAResourceNotIncludedSetsTheForeignKeyAndTheIDOnly() throws {
        let (map, articles) = try reading()
        let live = map.model(Author.self, collection: "/people", attributes: ["id": 5, "name": "Alan"])
        let document: JSONValue = [
            "data": [Self.article(1, author: Self.linkage(5)), Self.article(2, author: Self.linkage(6))],
            "included": [],
        ]

        try articles.reset(parsing: document)

        #expect(articles.models.map { $0["authorId"] } == [5, 6])
        #expect(articles.first?[Article.author] === live)
        #expect(live.attributes == ["id": 5, "name": "Alan"])
        #expect(articles.last?[Article.author]?.attributes == ["id": 6])
        #expect(map.existing(Author.self, id: 6, in: "/people") === articles.last?[Article.author])
    }

    @Test func aCycleFromAnAuthorBackToItsArticleEndsAtTheInstancesBeingRead() throws {
        let (map, articles) = try reading()
        let document: JSONValue = [
            "data": [Self.article(1, author: Self.linkage(7))],
            "included": [
                [
                    "type": "people", "id": "7", "attributes": ["name": "Ada"],
                    "relationships": [
                        "articles": ["data": [["type": "articles", "id": "1"], ["type": "articles", "id": "2"]]]
                    ],
                ],
                Self.article(2, author: Self.linkage(7)),
            ],
        ]

        try articles.reset(parsing: document)
        try map.mergeIncluded(from: document)

        let first = try #require(articles.first)
        let ada = try #require(first[Article.author])
        #expect(ada["name"] == "Ada")
        #expect(ada[Author.articles].length == 2)
        #expect(ada[Author.articles].first === first)
        let second = try #require(ada[Author.articles].last)
        #expect(second["title"] == "A2")
        #expect(second[Article.author] === ada)
        #expect(map.existing(Author.self, id: 7, in: "/people") === ada)
    }

    @Test func idsAtTheEdgeOfIntReadAsIntegersAndPastItAsStrings() throws {
        let articles = Collection<Article>()
        let ids = ["9223372036854775807", "9223372036854775808", "00", "10", "0", "1a"]
        let document: JSONValue = ["data": .array(ids.map { ["type": "articles", "id": .string($0)] })]

        try articles.reset(parsing: document)

        let expected: [JSONValue] = [.int(Int.max), "9223372036854775808", "00", 10, 0, "1a"]
        #expect(articles.models.map { $0.id ?? nil } == expected)
    }

    @Test func membersTheFormatDoesNotReadStayOutOfIncludedRecords() throws {
        let map = IdentityMap()
        try map.registerResourceType(for: API.GuardedAuthor.self, collection: "/guarded")
        let document: JSONValue = [
            "data": [],
            "included": [
                ["type": "guarded", "id": "1", "attributes": ["name": "Ada", "secret": "s", "draft": "d"]]
            ],
        ]

        let merged = try map.mergeIncluded(from: document)

        #expect(merged.first?.attributes == ["id": 1, "name": "Ada"])
    }

    @Test func aBadLinkageIsNamedByItsArticleAndNothingIsRead() async throws {
        let map = IdentityMap()
        var data = (0..<5).map { Self.article($0, author: Self.linkage($0)) }
        data[3] = Self.article(3, author: 7)
        let document: JSONValue = [
            "data": .array(data),
            "included": .array((0..<5).map { Self.author($0, ["name": "P\($0)"]) }),
        ]
        let articles = Collection<Article>(
            factory: map.factory(for: Article.self, collection: "/articles"),
            url: "/articles",
            sync: ScriptedSync(always: SyncResponse(body: document))
        )

        let error = await #expect(throws: SyncError.self) { _ = try await articles.fetch() }

        guard case .unmappableResponse(let keyPath, _) = error else {
            Issue.record("expected an unmappable response, got \(String(describing: error))")
            return
        }
        #expect(keyPath == "data[3].relationships.author.data")
        #expect(articles.length == 0)
        #expect(map.count == 0)
    }

    @Test func manyArticlesLinkTheirOwnAuthorsWhateverTheirIDsSpell() throws {
        let (map, articles) = try reading()
        let authorIDs = (0..<300).map { $0 % 3 == 0 ? "a\u{E9}\($0)" : $0 % 3 == 1 ? "\u{1F4DA}\($0)" : "\($0)" }
        let document: JSONValue = [
            "data": .array(
                authorIDs.indices.map { index in
                    var article = Self.article(index, author: nil).objectValue ?? [:]
                    article["relationships"] = [
                        "author": ["data": ["type": "people", "id": .string(authorIDs[index])]]
                    ]
                    return .object(article)
                }
            ),
            "included": .array(
                authorIDs.reversed().map {
                    ["type": "people", "id": .string($0), "attributes": ["name": .string("N" + $0)]]
                }
            ),
        ]

        try articles.reset(parsing: document)
        try map.mergeIncluded(from: document)

        #expect(articles.length == 300)
        for (article, id) in zip(articles.models, authorIDs) {
            let author = try #require(article[Article.author])
            #expect(author["name"] == .string("N" + id))
            // A digit id is an integer in the app, as JSON:API ids read.
            let appID: JSONValue = Int(id).map(JSONValue.int) ?? .string(id)
            #expect(map.existing(Author.self, id: appID, in: "/people") === author)
        }
        // "a\u{E9}0" precomposed is found decomposed: one Swift string, one record.
        #expect(map.existing(Author.self, id: "ae\u{301}0", in: "/people") === articles.first?[Article.author])
    }

    @Test func modelsOfThreeClassesBuiltInTurnKeepTheirRelationsAndFollowTheirOwnIDs() throws {
        let (map, articles) = try reading()
        try map.registerResourceType(for: API.GuardedAuthor.self, collection: "/guarded")
        let document: JSONValue = [
            "data": [Self.article(1, author: Self.linkage(7)), Self.article(2, author: Self.linkage(8))],
            "included": [
                Self.author(7, ["name": "Ada"]),
                ["type": "guarded", "id": "1", "attributes": ["name": "G"]],
                Self.author(8, ["name": "Grace"]),
            ],
        ]

        try articles.reset(parsing: document)
        let merged = try map.mergeIncluded(from: document)

        let ada = try #require(articles.first?[Article.author])
        let grace = try #require(articles.last?[Article.author])
        let guarded = try #require(merged.first { $0 is API.GuardedAuthor })
        // Each author was built with its class's relations, between articles built with theirs.
        #expect(ada[Author.articles].length == 0)
        #expect(grace[Author.articles].length == 0)
        ada.set("id", 70)
        guarded.set("id", 10)
        try #require(articles.last).set("id", 20)
        #expect(map.existing(Author.self, id: 70, in: "/people") === ada)
        #expect(map.existing(Author.self, id: 7, in: "/people") == nil)
        #expect(map.existing(API.GuardedAuthor.self, id: 10, in: "/guarded") === guarded)
        #expect(map.existing(Article.self, id: 20, in: "/articles") === articles.last)
        #expect(map.existing(Article.self, id: 2, in: "/articles") == nil)
    }
}
