import Testing

@testable import Keel

/// What a JSON:API reader reads of a resource's identity alone: the pass over its members that
/// stops at its `type` and `id`, and the identities of the resources being read around a linked
/// one (``JSONAPIReader/Ancestors``), however their strings are held.
@MainActor
struct JSONAPIReaderIdentityTests {
    /// A taxonomy term whose type is longer than a small string, listing the notes tagged with it.
    final class LongTerm: Model {
        static let notes = HasMany<LongNote>("notes")
        override class var urlRoot: String? { "/long-terms" }
        override class var wireFormat: WireFormat { .jsonAPI(type: "taxonomy_term--tags") }
        override class var relations: [any Relation] { [notes] }
    }

    /// A note whose type is longer than a small string, tagged with one term.
    final class LongNote: Model {
        static let term = BelongsTo<LongTerm>("term", foreignKey: "termId")
        override class var urlRoot: String? { "/long-notes" }
        override class var wireFormat: WireFormat { .jsonAPI(type: "node--article--note") }
        override class var relations: [any Relation] { [term] }
    }

    /// A page that links to its parent page, of its own type.
    final class Page: Model {
        static let parent = BelongsTo<Page>("parent", foreignKey: "parentId")
        override class var urlRoot: String? { "/pages" }
        override class var wireFormat: WireFormat { .jsonAPI(type: "pages") }
        override class var relations: [any Relation] { [parent] }
    }

    /// `text` held in storage of its own rather than as a small string.
    private nonisolated static func held(_ text: String) -> String {
        var held = String()
        held.reserveCapacity(64)
        held += text
        return held
    }

    private let names = JSONAPIResourceMembers.Names()

    // MARK: - Members

    @Test func theIdentityPassStopsAtTypeAndIDAndLeavesTheOtherMembersUnfound() {
        let resource: JSONObject = [
            "type": "people", "id": "7", "attributes": ["name": "Ada"], "relationships": [:],
        ]

        let identity = JSONAPIResourceMembers(identityOf: resource, names: names)
        let all = JSONAPIResourceMembers(of: resource, names: names)

        #expect((identity.type, identity.id) == (0, 1))
        #expect((identity.attributes, identity.relationships) == (-1, -1))
        #expect((all.type, all.id, all.attributes, all.relationships) == (0, 1, 2, 3))
        #expect(identity.key(in: resource) == all.key(in: resource))
    }

    @Test func theIdentityPassFindsTypeAndIDAfterOtherMembersAndUnderKeysHeldInTheirOwnStorage() {
        let resource: JSONObject = [
            "attributes": ["name": "Ada"], "a member name longer than small": 1,
            Self.held("id"): "7", "meta": [:], Self.held("type"): "people",
        ]

        let identity = JSONAPIResourceMembers(identityOf: resource, names: names)

        #expect((identity.type, identity.id) == (4, 2))
        #expect(identity.key(in: resource) == JSONAPIResourceIndex.Key(type: "people", id: "7"))
    }

    @Test func aResourceWithoutAnIDHasNoIdentity() {
        let resource: JSONObject = ["type": "people", "attributes": ["name": "Ada"]]

        let identity = JSONAPIResourceMembers(identityOf: resource, names: names)

        #expect((identity.type, identity.id) == (0, -1))
        #expect(identity.key(in: resource) == nil)
        #expect(identity.smallIdentityWords(in: resource) == nil)
    }

    // MARK: - Ancestors

    @Test func ancestorsTellSmallHeldAndLongIdentitiesApartAndForgetEachWhenPopped() throws {
        let small: JSONObject = ["type": "people", "id": "7"]
        let held: JSONObject = ["type": .string(Self.held("people")), "id": .string(Self.held("8"))]
        let long: JSONObject = ["type": "taxonomy_term--tags", "id": "3"]
        func key(_ resource: JSONObject) -> JSONAPIResourceIndex.Key? {
            JSONAPIResourceMembers(identityOf: resource, names: names).key(in: resource)
        }
        func push(_ resource: JSONObject, to ancestors: inout JSONAPIReader.Ancestors) -> JSONAPIReader.Ancestors.Kind?
        {
            ancestors.push(identityOf: resource, members: JSONAPIResourceMembers(identityOf: resource, names: names))
        }
        var ancestors = JSONAPIReader.Ancestors()

        let kinds = [push(small, to: &ancestors), push(held, to: &ancestors), push(long, to: &ancestors)]

        #expect(kinds == [.small, .small, .other])
        #expect(push(["type": "people"], to: &ancestors) == nil)
        for resource in [small, held, long] { #expect(ancestors.contains(try #require(key(resource)))) }
        #expect(!ancestors.contains(JSONAPIResourceIndex.Key(type: "people", id: "9")))
        #expect(ancestors.contains(JSONAPIResourceIndex.Key(type: "people", id: "8")))
        ancestors.pop(.other)
        ancestors.pop(.small)
        #expect(!ancestors.contains(try #require(key(long))))
        #expect(!ancestors.contains(try #require(key(held))))
        #expect(ancestors.contains(try #require(key(small))))
    }

    // MARK: - Reads

    @Test func aCycleThroughIdentitiesHeldInTheirOwnStorageEndsAtTheInstancesBeingRead() throws {
        typealias Author = JSONAPICompoundDocumentTests.API.Author
        typealias Article = JSONAPICompoundDocumentTests.API.Article
        let map = IdentityMap()
        try map.registerResourceType(for: Author.self, collection: "/people")
        let articles = Collection<Article>(factory: map.factory(for: Article.self, collection: "/articles"))
        let (articleType, authorType) = (JSONValue.string(Self.held("articles")), JSONValue.string(Self.held("people")))
        let document: JSONValue = [
            "data": [
                [
                    "type": articleType, "id": .string(Self.held("1")), "attributes": ["title": "A1"],
                    "relationships": ["author": ["data": ["type": authorType, "id": "7"]]],
                ]
            ],
            "included": [
                [
                    "type": authorType, "id": .string(Self.held("7")), "attributes": ["name": "Ada"],
                    "relationships": ["articles": ["data": [["type": articleType, "id": "1"]]]],
                ]
            ],
        ]

        try articles.reset(parsing: document)

        let article = try #require(articles.first)
        let ada = try #require(article[Article.author])
        #expect(ada["name"] == "Ada")
        #expect(ada[Author.articles].length == 1)
        #expect(ada[Author.articles].first === article)
    }

    @Test func aCycleThroughTypesLongerThanASmallStringEndsAtTheInstancesBeingRead() throws {
        let map = IdentityMap()
        try map.registerResourceType(for: LongTerm.self, collection: "/long-terms")
        let notes = Collection<LongNote>(factory: map.factory(for: LongNote.self, collection: "/long-notes"))
        let document: JSONValue = [
            "data": [
                [
                    "type": "node--article--note", "id": "1", "attributes": ["title": "N1"],
                    "relationships": ["term": ["data": ["type": "taxonomy_term--tags", "id": "3"]]],
                ]
            ],
            "included": [
                [
                    "type": "taxonomy_term--tags", "id": "3", "attributes": ["name": "swift"],
                    "relationships": [
                        "notes": [
                            "data": [
                                ["type": "node--article--note", "id": "1"], ["type": "node--article--note", "id": "2"],
                            ]
                        ]
                    ],
                ],
                [
                    "type": "node--article--note", "id": "2", "attributes": ["title": "N2"],
                    "relationships": ["term": ["data": ["type": "taxonomy_term--tags", "id": "3"]]],
                ],
            ],
        ]

        try notes.reset(parsing: document)

        let first = try #require(notes.first)
        let term = try #require(first[LongNote.term])
        #expect(term["name"] == "swift")
        #expect(term[LongTerm.notes].length == 2)
        #expect(term[LongTerm.notes].first === first)
        let second = try #require(term[LongTerm.notes].last)
        #expect(second["title"] == "N2")
        #expect(second[LongNote.term] === term)
    }

    @Test func aPrimaryResourceWhoseTypeIsHeldInItsOwnStorageIsTheOneALinkageOfThatTypeFinds() throws {
        let map = IdentityMap()
        let pages = Collection<Page>(factory: map.factory(for: Page.self, collection: "/pages"))
        let document: JSONValue = [
            "data": [
                [
                    "type": "pages", "id": "1", "attributes": ["title": "Child"],
                    "relationships": ["parent": ["data": ["type": "pages", "id": "2"]]],
                ],
                ["type": .string(Self.held("pages")), "id": "2", "attributes": ["title": "Parent"]],
            ]
        ]

        try pages.reset(parsing: document)

        let child = try #require(pages.first)
        let parent = try #require(child[Page.parent])
        #expect(parent["title"] == "Parent")
        #expect(child["parentId"] == 2)
    }

    // MARK: - A primary resource's type told by its bits

    @Test func aTypeIsToldByItsBitsOnlyWhenBothAreSmallASCIIStrings() {
        func told(_ type: JSONValue?, _ name: String) -> Bool? {
            var resource: JSONObject = ["id": "1"]
            if let type { resource["type"] = type }
            return JSONAPIResourceMembers(identityOf: resource, names: names).hasType(name, byBitsIn: resource)
        }

        #expect(told("pages", "pages") == true)
        #expect(told("posts", "pages") == false)
        #expect(told(7, "pages") == false)
        #expect(told(nil, "pages") == false)
        // Equal text held otherwise, longer than a small string, or not ASCII: the strings decide.
        #expect(told(.string(Self.held("pages")), "pages") == nil)
        #expect(told("taxonomy_term--tags", "taxonomy_term--page") == nil)
        #expect(told("pe\u{301}ges", "p\u{E9}ges") == nil)
    }

    /// The record the reader links to the first primary resource's `parent`, in a list document
    /// whose second primary resource is `other`.
    private func linkedParent(nextTo other: JSONObject, linkedType: String = "pages") throws -> JSONValue? {
        let document: JSONObject = [
            "data": [
                [
                    "type": "pages", "id": "1", "attributes": ["title": "Child"],
                    "relationships": ["parent": ["data": ["type": .string(linkedType), "id": "2"]]],
                ],
                .object(other),
            ]
        ]
        let records = try JSONAPIReader.records(from: document, as: Page.self, format: Page.wireFormat)
        return records[0]?["parent"]
    }

    @Test func aPrimaryResourceOfAnotherTypeOrOfNoTypeIsNotTheOneALinkageFinds() throws {
        for type: JSONValue? in ["posts", .string(Self.held("posts")), "taxonomy_term--tags", 7, nil] {
            var other: JSONObject = ["id": "2", "attributes": ["title": "Other"]]
            if let type { other["type"] = type }

            #expect(try linkedParent(nextTo: other) == ["id": 2])
        }
    }

    @Test func aPrimaryResourceOfTheLinkedTypeHeldOtherwiseIsTheOneALinkageFinds() throws {
        let parent: JSONValue = ["title": "Parent", "id": 2]
        for (type, linkedType) in [
            ("pages", "pages"), (Self.held("pages"), "pages"), ("pe\u{301}ges", "p\u{E9}ges"),
            ("taxonomy_term--tags", "taxonomy_term--tags"),
        ] {
            let other: JSONObject = ["type": .string(type), "id": "2", "attributes": ["title": "Parent"]]

            #expect(try linkedParent(nextTo: other, linkedType: linkedType) == parent)
        }
    }
}
