import Keel
import Testing

/// Large attribute objects (past the size where keys are searched linearly) keep their
/// insertion order and find every key through any mix of insertions and removals.
struct ModelManyAttributesTests {
    @Test func randomInsertionsAndRemovalsMatchAnArrayOfPairs() {
        var random = CollectionTestRandom(seed: 11)
        var object = JSONObject()
        var expected: [(key: String, value: JSONValue)] = []
        for step in 0..<6_000 {
            let key = "k\(Int.random(in: 0..<400, using: &random))"
            if Int.random(in: 0..<3, using: &random) == 0 {
                let position = expected.firstIndex { $0.key == key }
                let removed = position.map { expected.remove(at: $0).value }
                #expect(object.removeValue(forKey: key) == removed)
            } else {
                let value = JSONValue.int(step)
                if let position = expected.firstIndex(where: { $0.key == key }) {
                    expected[position].value = value
                } else {
                    expected.append((key, value))
                }
                object[key] = value
            }
            if step % 500 == 0 || step == 5_999 {
                #expect(object.keys == expected.map(\.key))
                #expect(object.values == expected.map(\.value))
                var mismatches = 0
                for (position, entry) in expected.enumerated() {
                    if object.index(forKey: entry.key) != position || object[entry.key] != entry.value {
                        mismatches += 1
                    }
                }
                for absent in 400..<420 where object.index(forKey: "k\(absent)") != nil { mismatches += 1 }
                #expect(mismatches == 0)
            }
        }
    }

    @Test func removingMostKeysOfALargeObjectKeepsTheRestInOrder() {
        var object = JSONObject(uniqueKeysWithLastValues: (0..<1_000).map { ("k\($0)", JSONValue.int($0)) })
        for index in stride(from: 0, to: 1_000, by: 1) where index % 10 != 0 {
            object.removeValue(forKey: "k\(index)")
        }
        #expect(object.keys == stride(from: 0, to: 1_000, by: 10).map { "k\($0)" })
        #expect(object.index(forKey: "k990") == 99)
        object["k5"] = 5
        #expect(object.index(forKey: "k5") == 100)
        #expect(object.keys.last == "k5")
    }

    // The index that makes removals cheap lives in the entries' storage: an object is one
    // word, so a `JSONValue` holding one does not grow and a model holding one stays small.
    @Test func anObjectIsOneWord() {
        #expect(MemoryLayout<JSONObject>.size == MemoryLayout<Int>.size)
    }

    // Copies of a large object share its index until one of them changes.
    @Test func copiesOfALargeObjectChangeIndependently() {
        let original = JSONObject(uniqueKeysWithLastValues: (0..<50).map { ("k\($0)", JSONValue.int($0)) })
        var copy = original
        copy.removeValue(forKey: "k10")
        copy["new"] = 1
        var other = original
        other.removeValue(forKey: "k40")
        #expect(original.count == 50 && original.index(forKey: "k40") == 40 && original.index(forKey: "k10") == 10)
        #expect(copy.index(forKey: "k40") == 39 && copy.index(forKey: "new") == 49 && copy["k10"] == nil)
        #expect(other.index(forKey: "k41") == 40 && other.index(forKey: "k10") == 10 && other["new"] == nil)
    }

    // A removed key's place in the index never names a key added later.
    @Test func aKeyRemovedFromTheEndStaysAbsentAfterAnotherIsAdded() {
        var object = JSONObject(uniqueKeysWithLastValues: (0..<20).map { ("k\($0)", JSONValue.int($0)) })
        object.removeValue(forKey: "k5")
        object.removeValue(forKey: "k19")
        object["new"] = 1
        #expect(object["k19"] == nil && object.index(forKey: "k19") == nil)
        #expect(object.index(forKey: "new") == 18)
        object["k19"] = 2
        #expect(object.keys.suffix(2) == ["new", "k19"])
        #expect(object.count == 20)
    }

    @Test func unsetOnAModelWithManyAttributesKeepsInsertionOrder() {
        let keys = (0..<2_000).map { "a\($0)" }
        let model = Model(JSONObject(uniqueKeysWithLastValues: keys.map { ($0, JSONValue.int(1)) }))
        var changed: [String] = []
        model.on("all") { event in
            if event.name.hasPrefix("change:") { changed.append(String(event.name.dropFirst(7))) }
        }
        for index in stride(from: 1, to: 2_000, by: 2) { model.unset("a\(index)") }
        #expect(changed == stride(from: 1, to: 2_000, by: 2).map { "a\($0)" })
        let remaining = stride(from: 0, to: 2_000, by: 2).map { "a\($0)" }
        #expect(model.attributes.keys == remaining)
        #expect(remaining.allSatisfy { model.has($0) })
        #expect(!model.has("a1"))
        #expect(model.previous("a1999") == 1)
        model.set("a1", 2)
        #expect(model.attributes.keys.last == "a1")
        #expect(model.attributes.index(forKey: "a1998") == 999)
    }
}
