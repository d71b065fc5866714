import Keel
import Synchronization
import Testing

/// `IdentityMap.mergeIncluded(from:)` finds each included resource's model by its id's key.
///
/// The key is read where the resource holds its id: a decimal id as the integer it reads as,
/// every other form as its app value. Each form is found, so that no resource is applied
/// twice, and none is taken for another's.
@MainActor
struct JSONAPIMergeIncludedIDFormTests {
    /// An author whose `parse` counts its calls.
    final class Scribe: Model {
        static let parses = Atomic<Int>(0)
        override class var urlRoot: String? { "/scribes" }
        override class var wireFormat: WireFormat { .jsonAPI(type: "scribes") }

        override func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? {
            Self.parses.add(1, ordering: .relaxed)
            return response.objectValue
        }
    }

    final class Scroll: Model {
        static let scribe = BelongsTo<Scribe>("scribe", foreignKey: "scribeId")
        override class var urlRoot: String? { "/scrolls" }
        override class var wireFormat: WireFormat { .jsonAPI(type: "scrolls") }
        override class var relations: [any Relation] { [scribe] }
    }

    /// Wire ids of every form a server sends: decimals (zero, one digit, many), a negative
    /// number, a leading zero, text, text past a small string's 15 bytes, and a JSON number.
    nonisolated static let ids: [JSONValue] = [
        "0", "7", "123456789012345", "-3", "007", "ada", "an-id-longer-than-fifteen-bytes", 42,
    ]

    private nonisolated static func document(scribeIDs: [JSONValue]) -> JSONValue {
        let scrolls: [JSONValue] = scribeIDs.enumerated().map { index, id in
            [
                "type": "scrolls", "id": .string(String(index + 1)),
                "relationships": ["scribe": ["data": ["type": "scribes", "id": id]]],
            ]
        }
        let scribes: [JSONValue] = scribeIDs.map { id in
            ["type": "scribes", "id": id, "attributes": ["name": "S"]]
        }
        return ["data": .array(scrolls), "included": .array(scribes)]
    }

    @Test(arguments: ids)
    func aResourceTheReadAppliedIsFoundByItsIDAndNotAppliedAgain(id: JSONValue) throws {
        let map = IdentityMap()
        try map.registerResourceType(for: Scribe.self, collection: "/scribes")
        let scrolls = Collection<Scroll>(factory: map.factory(for: Scroll.self, collection: "/scrolls"))
        let document = Self.document(scribeIDs: [id])
        try scrolls.reset(parsing: document)
        let scribe = try #require(scrolls.first?[Scroll.scribe])

        let before = Scribe.parses.load(ordering: .relaxed)
        let merged = try map.mergeIncluded(from: document)

        #expect(Scribe.parses.load(ordering: .relaxed) == before)
        #expect(merged.count == 1 && merged.first === scribe)
    }

    @Test func idsOfEveryFormInOneDocumentEachFindTheirOwnModel() throws {
        let map = IdentityMap()
        try map.registerResourceType(for: Scribe.self, collection: "/scribes")
        let scrolls = Collection<Scroll>(factory: map.factory(for: Scroll.self, collection: "/scrolls"))
        let document = Self.document(scribeIDs: Self.ids)
        try scrolls.reset(parsing: document)
        let scribes = scrolls.models.map { $0[Scroll.scribe] }

        let before = Scribe.parses.load(ordering: .relaxed)
        let merged = try map.mergeIncluded(from: document)

        #expect(Scribe.parses.load(ordering: .relaxed) == before)
        #expect(merged.count == Self.ids.count)
        for (model, scribe) in zip(merged, scribes) { #expect(model === scribe) }
        #expect(Set(merged.map(ObjectIdentifier.init)).count == Self.ids.count)
    }

    @Test func anIncludedResourceNoRelationReachedIsMergedWithADecimalID() throws {
        let map = IdentityMap()
        try map.registerResourceType(for: Scribe.self, collection: "/scribes")
        let scrolls = Collection<Scroll>(factory: map.factory(for: Scroll.self, collection: "/scrolls"))
        let document: JSONValue = [
            "data": [
                [
                    "type": "scrolls", "id": "1",
                    "relationships": ["scribe": ["data": ["type": "scribes", "id": "7"]]],
                ]
            ],
            "included": [
                ["type": "scribes", "id": "7", "attributes": ["name": "S"]],
                ["type": "scribes", "id": "8", "attributes": ["name": "Unlinked"]],
            ],
        ]
        try scrolls.reset(parsing: document)

        let before = Scribe.parses.load(ordering: .relaxed)
        let merged = try map.mergeIncluded(from: document)

        #expect(Scribe.parses.load(ordering: .relaxed) == before + 1)
        #expect(merged.count == 2 && merged[0] === scrolls.first?[Scroll.scribe])
        #expect(merged[1]["name"] == "Unlinked")
        #expect(map.existing(Scribe.self, id: 8, in: "/scribes") === merged[1])
    }
}
