import Foundation
import Testing

@testable import Keel

/// Shaped objects for tests: ``JSONObject/init(merging:with:)`` shapes its result only when the
/// merged keys are those of the layout the last model found, which tests running beside these
/// change at any time, so the layout is found again until the merge comes out shaped.
enum ShapedObjects {
    /// `base` merged with `overrides`, in the shaped form.
    static func merged(_ base: JSONObject, _ overrides: JSONObject) throws -> JSONObject {
        let keys = base.merging(overrides)
        for _ in 0..<10_000 {
            _ = AttributeLayout.of(keys)
            let merged = JSONObject(merging: base, with: overrides)
            if merged.isShaped { return merged }
        }
        throw ShapingFailed()
    }

    /// An object with the keys and values of `object`, which must not be empty, in the shaped
    /// form.
    static func shaped(_ object: JSONObject) throws -> JSONObject {
        try merged(object, JSONObject(uniqueKeysWithLastValues: [(object[0].key, object[0].value)]))
    }

    /// The merge never came out shaped.
    struct ShapingFailed: Error {}
}

/// An object whose values lie alone in slot order, its keys in a shared layout (the shaped
/// form, a model's attributes built with its `defaults`), behaves exactly as one that keeps
/// each key beside its value.
struct JSONObjectShapedFormTests {
    private static let members: JSONObject = [
        "title": "Dune", "done": false, "year": 1965, "tags": ["a", "b"], "author": ["name": "Frank", "id": 3],
        "ratio": 0.5, "note": nil,
    ]

    @Test func aMergeWithTheKeysOfAKnownLayoutIsShapedAndEqualToTheEntriesForm() throws {
        let shaped = try ShapedObjects.merged(["title": "", "done": true], Self.members)
        #expect(shaped.isShaped)
        let entries = JSONObject(uniqueKeysWithLastValues: shaped.keys.map { ($0, shaped[$0]!) })
        #expect(!entries.isShaped)
        #expect(shaped == entries)
        #expect(entries == shaped)
        #expect(shaped.hashValue == entries.hashValue)
        #expect(JSONValue.object(shaped).hashValue == JSONValue.object(entries).hashValue)
        #expect(shaped.keys == ["title", "done", "year", "tags", "author", "ratio", "note"])
        #expect(shaped["done"] == false)
        #expect(shaped["title"] == "Dune")
        #expect(shaped["missing"] == nil)
        #expect(shaped.index(forKey: "ratio") == 5)
    }

    @Test func aShapedStorageNeverReportsAHashIndex() throws {
        let shaped = try ShapedObjects.shaped(Self.members)
        let storage = try #require(shaped.entryStorage)
        #expect(storage.isShaped)
        #expect(storage.keyStamps == nil)
        #expect(!storage.hasKeyStamps)
        #expect(storage.elementCapacity <= ElementStorageHeader.smallCapacity)
    }

    @Test func everyReadMatchesTheEntriesForm() throws {
        let shaped = try ShapedObjects.shaped(Self.members)
        let entries = Self.members
        #expect(shaped.isShaped && !entries.isShaped)
        #expect(shaped.keys == entries.keys)
        #expect(shaped.values == entries.values)
        #expect(shaped.map(\.key) == entries.map(\.key))
        #expect(shaped.map(\.value) == entries.map(\.value))
        #expect(shaped.description == entries.description)
        #expect(try JSONValue.object(shaped).jsonString() == JSONValue.object(entries).jsonString())
        let sorted = JSONWriteOptions.sortedKeys
        #expect(try JSONValue.object(shaped).jsonString(options: sorted) == entries.jsonString(options: sorted))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(shaped) == encoder.encode(entries))
        #expect(try JSONValueEncoder().encode(shaped) == JSONValueEncoder().encode(entries))
        #expect(shaped.filter { $0.value.isContainer } == entries.filter { $0.value.isContainer })
        for key in entries.keys { #expect(shaped.contains(key)) }
    }

    @Test func everyChangeMatchesTheEntriesForm() throws {
        let changes: [(String, (inout JSONObject) -> Void)] = [
            ("set a value", { $0["year"] = 2000 }),
            ("update a value", { _ = $0.updateValue("x", forKey: "title") }),
            ("add a key", { $0["rank"] = 1 }),
            ("remove a key", { $0["done"] = nil }),
            ("remove a missing key", { $0.removeValue(forKey: "missing") }),
            ("remove all", { $0.removeAll() }),
            ("merge", { $0 = $0.merging(["rank": 2, "title": "y"]) }),
            ("merge into", { $0 = (["first": 0] as JSONObject).merging($0) }),
            ("reserve", { $0.reserveCapacity(20) }),
            ("set null", { $0["tags"] = .null }),
        ]
        for (name, change) in changes {
            var shaped = try ShapedObjects.shaped(Self.members)
            let before = shaped
            var entries = Self.members
            change(&shaped)
            change(&entries)
            #expect(shaped == entries, "\(name)")
            #expect(shaped.keys == entries.keys, "\(name)")
            #expect(shaped.description == entries.description, "\(name)")
            // A copy taken before keeps its values.
            #expect(before == Self.members, "\(name)")
            #expect(before.isShaped, "\(name)")
        }
    }

    @Test func aValueSetInPlaceKeepsTheFormAndLeavesCopiesAlone() throws {
        var shaped = try ShapedObjects.shaped(Self.members)
        let copy = shaped
        shaped["year"] = 1966
        #expect(shaped.isShaped)
        #expect(shaped["year"] == 1966)
        #expect(copy["year"] == 1965)
        shaped.setValue("Children of Dune", at: 0)
        #expect(shaped["title"] == "Children of Dune")
        #expect(copy["title"] == "Dune")
    }

    @Test func nestedShapedObjectsAreFreedWithTheirContainers() throws {
        var deep = JSONValue.object(try ShapedObjects.shaped(Self.members))
        for _ in 0..<2_000 { deep = .array([deep, .object(try ShapedObjects.shaped(["a": deep]))]) }
        #expect(deep.arrayValue?.count == 2)
        deep = .null
        #expect(deep == .null)
    }
}

extension JSONValue {
    /// Whether the value is an array or object.
    fileprivate var isContainer: Bool {
        switch self {
        case .array, .object: return true
        default: return false
        }
    }
}
