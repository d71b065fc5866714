import Testing

@testable import Keel

/// A model whose defaults are built afresh for every model, so the merge may move them.
private final class FreshDefaults: Model {
    override class var defaults: Attributes { ["title": "", "done": false, "archived": false] }
}

/// The defaults that ``SharedDefaults`` hands out: one object whose storage every model's
/// merge finds shared, so it is copied from.
private let sharedDefaults: Attributes = ["title": "untitled", "tags": ["a", "b"], "meta": ["x": 1]]

/// A model whose defaults are one shared object.
private final class SharedDefaults: Model {
    override class var defaults: Attributes { sharedDefaults }
}

/// A model with more defaults than a small map searches linearly.
private final class ManyDefaults: Model {
    override class var defaults: Attributes {
        JSONObject(uniqueKeysWithLastValues: (0..<14).map { ("d\($0)", JSONValue.int($0)) })
    }
}

/// A model whose defaults have a key too long to be compared by its bits alone.
private final class LongKeyDefaults: Model {
    override class var defaults: Attributes { ["a_rather_long_attribute_name": 0, "b": 1] }
}

/// The attributes of note `i`: two keys overlap ``FreshDefaults``' defaults.
private func noteAttributes(_ i: Int) -> Attributes {
    [
        "id": .int(i), "title": .string("note \(i)"), "body": "text", "done": true,
        "tags": ["a", "b"], "author": ["name": "x", "id": 3],
    ]
}

/// Building a model merges the class's defaults with the attributes it is given: the defaults' keys
/// first (with the given values where both have a key), then the other given keys in their order.
///
/// Storage that nothing else holds is moved into the model; storage the caller or the class still
/// holds is copied from and stays as it was.
struct ModelDefaultsMergeTests {
    private static let mergedKeys = ["title", "done", "archived", "id", "body", "tags", "author"]

    @Test func freshAttributesAndDefaultsMergeWithTheDefaultsKeysFirst() {
        let note = FreshDefaults(noteAttributes(7))
        #expect(note.attributes.keys == Self.mergedKeys)
        #expect(note["title"] == "note 7")
        #expect(note["done"] == true)
        #expect(note["archived"] == false)
        #expect(note["tags"] == ["a", "b"])
        #expect(note["author"] == ["name": "x", "id": 3])
        #expect(note.id == 7)
        #expect(Array(note.layout.keys) == Self.mergedKeys)
        #expect(!note.hasChanged())
        #expect(note.changedAttributes() == nil)
    }

    @Test func attributesTheCallerKeepsAreCopiedAndLeftUnchanged() {
        let attributes = noteAttributes(3)
        let note = FreshDefaults(attributes)
        let other = FreshDefaults(attributes)
        #expect(attributes == noteAttributes(3))
        #expect(attributes.keys == ["id", "title", "body", "done", "tags", "author"])
        #expect(note.attributes.keys == Self.mergedKeys)
        #expect(note.attributes == other.attributes)
        #expect(note["done"] == true)
        #expect(!note.hasChanged())
    }

    @Test func sharedDefaultsAreCopiedAndLeftUnchanged() {
        let first = SharedDefaults(["id": 1, "tags": ["c"]])
        let second = SharedDefaults(["id": 2])
        #expect(sharedDefaults == ["title": "untitled", "tags": ["a", "b"], "meta": ["x": 1]])
        #expect(first.attributes.keys == ["title", "tags", "meta", "id"])
        #expect(first["tags"] == ["c"])
        #expect(second["tags"] == ["a", "b"])
        #expect(second["meta"] == ["x": 1])
        first.set("title", "changed")
        #expect(second["title"] == "untitled")
        #expect(SharedDefaults.defaults["title"] == "untitled")
    }

    @Test func aModelWithoutAttributesStartsWithTheDefaults() {
        let note = FreshDefaults()
        #expect(note.attributes == ["title": "", "done": false, "archived": false])
        #expect(note.attributes.keys == ["title", "done", "archived"])
        #expect(note.isNew)
        #expect(!note.hasChanged())
    }

    @Test func anExplicitNullKeepsItsKeyAgainstTheDefault() {
        let note = FreshDefaults(["done": nil, "extra": 1])
        #expect(note.attributes.keys == ["title", "done", "archived", "extra"])
        #expect(note["done"] == .null)
        #expect(note.has("title"))
        #expect(!note.has("done"))
    }

    @Test func keysEqualWithOtherBitsMatchTheirDefault() {
        // Built at run time, so its bits are not the literal's.
        var key = "a_rather_long_attribute_"
        key += "name"
        let model = LongKeyDefaults([key: 5, "c": 2])
        #expect(model.attributes.keys == ["a_rather_long_attribute_name", "b", "c"])
        #expect(model["a_rather_long_attribute_name"] == 5)
    }

    @Test func manyDefaultsOrManyAttributesMergeTheSameWay() {
        let many = ManyDefaults(["d3": "three", "extra": true])
        #expect(many.attributes.keys == (0..<14).map { "d\($0)" } + ["extra"])
        #expect(many["d3"] == "three")
        #expect(many["d13"] == 13)
        #expect(!many.hasChanged())

        let attributes = JSONObject(uniqueKeysWithLastValues: (0..<13).map { ("k\($0)", JSONValue.int($0)) })
        let wide = FreshDefaults(attributes.merging(["done": true]))
        #expect(wide.attributes.keys == ["title", "done", "archived"] + (0..<13).map { "k\($0)" })
        #expect(wide["done"] == true)
        #expect(wide["k12"] == 12)
    }

    @Test func aParsedModelMergesTheParsedAttributes() {
        let note = FreshDefaults(["id": 1, "title": "t"], options: ChangeOptions(parse: true))
        #expect(note.attributes.keys == ["title", "done", "archived", "id"])
        #expect(note["title"] == "t")
    }
}

/// ``OrderedStringMap/merging(emptying:_:)`` leaves the same entries as ``OrderedStringMap/merge(_:)``
/// whether it moves or copies them, and leaves both maps empty.
struct OrderedStringMapMergingTests {
    private static func map(_ pairs: [(String, Int)]) -> OrderedStringMap<Int> {
        var map = OrderedStringMap<Int>()
        for (key, value) in pairs { map.updateValue(value, forKey: key) }
        return map
    }

    private static func pairs(_ map: OrderedStringMap<Int>) -> [String] {
        map.entries.map { "\($0.key)=\($0.value)" }
    }

    /// Small maps, an empty one, and a large one on either side.
    private static let cases: [(base: [(String, Int)], overrides: [(String, Int)])] = [
        ([("a", 1), ("b", 2)], [("b", 3), ("c", 4)]),
        ([("a", 1)], []),
        ([], [("a", 1)]),
        ((0..<13).map { ("k\($0)", $0) }, [("k1", 100), ("z", 0)]),
        ([("a", 1)], (0..<13).map { ("k\($0)", $0) }),
    ]

    @Test(arguments: cases)
    func mergingGivesTheEntriesOfMerge(base: [(String, Int)], overrides: [(String, Int)]) {
        var expected = Self.map(base)
        expected.merge(Self.map(overrides))

        var uniqueBase = Self.map(base)
        var uniqueOverrides = Self.map(overrides)
        let moved = OrderedStringMap.merging(emptying: &uniqueBase, &uniqueOverrides)
        #expect(Self.pairs(moved) == Self.pairs(expected))
        #expect(uniqueBase.isEmpty && uniqueOverrides.isEmpty)

        let keptBase = Self.map(base)
        let keptOverrides = Self.map(overrides)
        var sharedBase = keptBase
        var sharedOverrides = keptOverrides
        let copied = OrderedStringMap.merging(emptying: &sharedBase, &sharedOverrides)
        #expect(Self.pairs(copied) == Self.pairs(expected))
        #expect(Self.pairs(keptBase) == Self.pairs(Self.map(base)))
        #expect(Self.pairs(keptOverrides) == Self.pairs(Self.map(overrides)))
        #expect(copied.index(forKey: "zz") == nil)
        for (position, entry) in expected.entries.enumerated() {
            #expect(copied.index(forKey: entry.key) == position)
        }
    }
}
