import Keel
import Testing

/// Identities and types of a compound document however their strings are held, and
/// `included` lists that mix types, as the reader's index and
/// ``IdentityMap/mergeIncluded(from:)`` meet them.
///
/// The index keys a short ASCII identity by the bits of its small strings, and the merge
/// compares a resource's type with the one before it: a string of the same text held in
/// other storage, a type longer than a small string, a type that changes from one resource
/// to the next, and a member that is no type must all read as the rules say.
@MainActor
struct JSONAPIIdentityKeyTests {
    typealias Author = JSONAPICompoundDocumentTests.API.Author
    typealias Article = JSONAPICompoundDocumentTests.API.Article

    final class Term: Model {
        override class var urlRoot: String? { "/terms" }
        override class var wireFormat: WireFormat { .jsonAPI(type: "taxonomy_term--tags") }
    }

    final class TaggedNote: Model {
        static let term = BelongsTo<Term>("term", foreignKey: "termId")
        override class var urlRoot: String? { "/notes" }
        override class var wireFormat: WireFormat { .jsonAPI(type: "notes") }
        override class var relations: [any Relation] { [term] }
    }

    /// `text` held in storage of its own rather than as a small string.
    private nonisolated static func held(_ text: String) -> String {
        var held = String()
        held.reserveCapacity(64)
        held += text
        return held
    }

    /// An identity map that knows `people` and `taxonomy_term--tags`, and a collection of
    /// articles built through it.
    private func reading() throws -> (map: IdentityMap, articles: Collection<Article>) {
        let map = IdentityMap()
        try map.registerResourceType(for: Author.self, collection: "/people")
        try map.registerResourceType(for: Term.self, collection: "/terms")
        return (map, Collection<Article>(factory: map.factory(for: Article.self, collection: "/articles")))
    }

    @Test func aLinkageWhoseIDIsHeldInItsOwnStorageFindsItsIncludedResource() throws {
        let (map, articles) = try reading()
        let id = Self.held("7")
        let type = Self.held("people")
        let document: JSONValue = [
            "data": [
                [
                    "type": "articles", "id": "1", "attributes": ["title": "A1"],
                    "relationships": ["author": ["data": ["type": .string(type), "id": .string(id)]]],
                ]
            ],
            "included": [["type": "people", "id": "7", "attributes": ["name": "Ada"]]],
        ]

        try articles.reset(parsing: document)
        try map.mergeIncluded(from: document)

        let author = try #require(articles.first?[Article.author])
        #expect(author["name"] == "Ada")
        #expect(articles.first?["authorId"] == 7)
        #expect(map.existing(Author.self, id: 7, in: "/people") === author)
    }

    @Test func anIncludedResourceWhoseIdentityIsHeldInItsOwnStorageIsFoundByASmallLinkage() throws {
        let (map, articles) = try reading()
        let document: JSONValue = [
            "data": [
                [
                    "type": "articles", "id": "1", "attributes": ["title": "A1"],
                    "relationships": ["author": ["data": ["type": "people", "id": "7"]]],
                ]
            ],
            "included": [
                ["type": .string(Self.held("people")), "id": .string(Self.held("7")), "attributes": ["name": "Ada"]]
            ],
        ]

        try articles.reset(parsing: document)
        let merged = try map.mergeIncluded(from: document)

        let author = try #require(articles.first?[Article.author])
        #expect(author["name"] == "Ada")
        #expect(merged.count == 1 && merged.first === author)
    }

    @Test func aTypeLongerThanASmallStringLinksAndMerges() throws {
        let map = IdentityMap()
        try map.registerResourceType(for: Term.self, collection: "/terms")
        let notes = Collection<TaggedNote>(factory: map.factory(for: TaggedNote.self, collection: "/notes"))
        let document: JSONValue = [
            "data": [
                [
                    "type": "notes", "id": "1",
                    "relationships": ["term": ["data": ["type": "taxonomy_term--tags", "id": "3"]]],
                ]
            ],
            "included": [
                ["type": "taxonomy_term--tags", "id": "3", "attributes": ["name": "swift"]],
                ["type": "taxonomy_term--tags", "id": "4", "attributes": ["name": "rust"]],
            ],
        ]

        try notes.reset(parsing: document)
        let merged = try map.mergeIncluded(from: document)

        let term = try #require(notes.first?[TaggedNote.term])
        #expect(term["name"] == "swift")
        #expect(notes.first?["termId"] == 3)
        #expect(merged.map { $0["name"] } == ["swift", "rust"])
        #expect(merged.first === term)
    }

    @Test func includedResourcesOfTypesInTurnMergeEachUnderItsOwnClassInDocumentOrder() throws {
        let (map, articles) = try reading()
        let document: JSONValue = [
            "data": [],
            "included": [
                ["type": "people", "id": "7", "attributes": ["name": "Ada"]],
                ["type": "taxonomy_term--tags", "id": "3", "attributes": ["name": "swift"]],
                ["type": "planets", "id": "9", "attributes": ["name": "Mars"]],
                ["type": .string(Self.held("people")), "id": "8", "attributes": ["name": "Grace"]],
                ["type": "taxonomy_term--tags", "id": "4", "attributes": ["name": "rust"]],
            ],
        ]

        try articles.reset(parsing: document)
        let merged = try map.mergeIncluded(from: document)

        #expect(merged.map { $0["name"] } == ["Ada", "swift", "Grace", "rust"])
        let classes: [Model.Type] = [Author.self, Term.self, Author.self, Term.self]
        #expect(merged.map { ObjectIdentifier(type(of: $0)) } == classes.map { ObjectIdentifier($0) })
        #expect(map.existing(Author.self, id: 8, in: "/people") === merged[2])
        #expect(map.existing(Term.self, id: 4, in: "/terms") === merged[3])
        #expect(map.count == 4)
    }

    @Test func resourcesTheReadAppliedAndOnesTheMergeReadsKeepDocumentOrder() throws {
        let (map, articles) = try reading()
        let linked: (String) -> JSONValue = { id in
            [
                "type": "articles", "id": .string("1\(id)"),
                "relationships": ["author": ["data": ["type": "people", "id": .string(id)]]],
            ]
        }
        let person: (String, String) -> JSONValue = { id, name in
            ["type": "people", "id": .string(id), "attributes": ["name": .string(name)]]
        }
        let document: JSONValue = [
            "data": [linked("7"), linked("9")],
            "included": [
                person("6", "Alan"), person("7", "Ada"), person("8", "Grace"), person("9", "Edsger"),
                person("10", "Barbara"), person("11", "Donald"),
            ],
        ]

        try articles.reset(parsing: document)
        let merged = try map.mergeIncluded(from: document)

        #expect(merged.map { $0["name"] } == ["Alan", "Ada", "Grace", "Edsger", "Barbara", "Donald"])
        #expect(merged[1] === articles.first?[Article.author])
        #expect(merged[3] === articles.last?[Article.author])
        for (id, model) in zip([6, 7, 8, 9, 10, 11], merged) {
            #expect(map.existing(Author.self, id: .int(id), in: "/people") === model)
        }
    }

    @Test func anIncludedMemberWithNoStringTypeOrNoObjectIsLeftAloneAndTheOthersMerge() throws {
        let (map, articles) = try reading()
        let document: JSONValue = [
            "data": [],
            "included": [
                ["type": "people", "id": "7", "attributes": ["name": "Ada"]],
                ["type": 5, "id": "8", "attributes": ["name": "Five"]],
                "people",
                ["id": "9", "attributes": ["name": "Untyped"]],
                ["type": "people", "id": "10", "attributes": ["name": "Grace"]],
            ],
        ]

        try articles.reset(parsing: document)
        let merged = try map.mergeIncluded(from: document)

        #expect(merged.map { $0["name"] } == ["Ada", "Grace"])
        #expect(map.existing(Author.self, id: 8, in: "/people") == nil)
        #expect(map.existing(Author.self, id: 9, in: "/people") == nil)
        #expect(map.count == 2)
    }

    @Test func aBadResourceAfterOnesTheReadAppliedMergesNothingAndChangesNoModel() throws {
        let (map, articles) = try reading()
        let document: JSONValue = [
            "data": [
                [
                    "type": "articles", "id": "1", "attributes": ["title": "A1"],
                    "relationships": ["author": ["data": ["type": "people", "id": "7"]]],
                ]
            ],
            "included": [
                ["type": "people", "id": "7", "attributes": ["name": "Ada"]],
                ["type": "people", "id": "8", "attributes": ["name": "Grace"]],
                ["type": "people", "id": true, "attributes": ["name": "Nobody"]],
            ],
        ]

        try articles.reset(parsing: document)
        let ada = try #require(articles.first?[Article.author])
        ada["name"] = "Ada L."

        #expect(throws: SyncError.self) { try map.mergeIncluded(from: document) }
        #expect(ada["name"] == "Ada L.")
        #expect(map.existing(Author.self, id: 8, in: "/people") == nil)
    }

    @Test func aPrimaryResourceAlsoIncludedIsLinkedWithTheFieldsOfBoth() throws {
        let articles = Collection<Article>()
        let document: JSONValue = [
            "data": [
                [
                    "type": "articles", "id": "1", "attributes": ["title": "A1"],
                    "relationships": ["author": ["data": ["type": "people", "id": "7"]]],
                ],
                ["type": "articles", "id": "2", "attributes": ["title": "A2"]],
            ],
            "included": [
                [
                    "type": "people", "id": "7", "attributes": ["name": "Ada"],
                    "relationships": ["articles": ["data": [["type": "articles", "id": "2"]]]],
                ],
                ["type": "articles", "id": "2", "attributes": ["words": 5]],
            ],
        ]

        try articles.reset(parsing: document)

        let author = try #require(articles.first?[Article.author])
        let linked = try #require(author[Author.articles].first)
        #expect(linked["title"] == "A2")
        #expect(linked["words"] == 5)
        #expect(linked.id == 2)
        #expect(articles.last?.attributes == ["title": "A2", "id": 2])
    }

    @Test func anIncludedResourceMergedAfterTheReadLinksToTheSinglePrimaryResource() throws {
        let map = IdentityMap()
        try map.registerResourceType(for: Author.self, collection: "/people")
        let document: JSONValue = [
            "data": ["type": "articles", "id": "1", "attributes": ["title": "A1"]],
            "included": [
                [
                    "type": "people", "id": "9", "attributes": ["name": "Grace"],
                    "relationships": ["articles": ["data": [["type": "articles", "id": "1"]]]],
                ]
            ],
        ]

        let merged = try map.mergeIncluded(from: document)

        let grace = try #require(merged.first as? Author)
        #expect(grace["name"] == "Grace")
        #expect(grace[Author.articles].first?["title"] == "A1")
        #expect(grace[Author.articles].first?.id == 1)
    }
}
