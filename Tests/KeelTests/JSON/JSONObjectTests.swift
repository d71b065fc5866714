import Keel
import Testing

struct JSONObjectOrderTests {
    @Test func keysKeepInsertionOrder() {
        var object: JSONObject = ["title": "Dune", "year": 1965]
        object["rank"] = 1
        object["author"] = "Herbert"
        #expect(object.keys == ["title", "year", "rank", "author"])
        #expect(object.values == ["Dune", 1965, 1, "Herbert"])
    }

    @Test func replacingAValueKeepsItsPosition() {
        var object: JSONObject = ["a": 1, "b": 2, "c": 3]
        let old = object.updateValue(20, forKey: "b")
        #expect(old == 2)
        object["a"] = 10
        #expect(object.keys == ["a", "b", "c"])
        #expect(object.values == [10, 20, 3])
    }

    @Test func removingAndAddingAgainMovesTheKeyToTheEnd() {
        var object: JSONObject = ["a": 1, "b": 2, "c": 3]
        #expect(object.removeValue(forKey: "a") == 1)
        object["a"] = 1
        #expect(object.keys == ["b", "c", "a"])
    }

    @Test func assigningNilRemovesButNullIsStored() {
        var object: JSONObject = ["a": 1, "b": 2]
        object["a"] = nil
        object["c"] = .null
        #expect(!object.contains("a"))
        #expect(object.contains("c"))
        #expect(object["c"] == .null)
        #expect(object.keys == ["b", "c"])
        #expect(object.removeValue(forKey: "missing") == nil)
    }

    @Test func duplicateKeysKeepTheFirstPositionAndTheLastValue() {
        let object = JSONObject(uniqueKeysWithLastValues: [("a", 1), ("b", 2), ("a", 3)])
        #expect(object.keys == ["a", "b"])
        #expect(object["a"] == 3)
    }

    @Test func dictionaryInitializerSortsKeys() {
        let object = JSONObject(["b": 2, "c": 3, "a": 1] as [String: JSONValue])
        #expect(object.keys == ["a", "b", "c"])
    }

    @Test func collectionAccessFollowsKeyOrder() {
        let object: JSONObject = ["x": 1, "y": 2]
        #expect(object.count == 2)
        #expect(object[0].key == "x")
        #expect(object[1].value == 2)
        #expect(object.map(\.key) == ["x", "y"])
        #expect(object.index(forKey: "y") == 1)
        #expect(object.index(forKey: "z") == nil)
    }

    @Test func removeAllEmptiesTheObject() {
        var object: JSONObject = ["a": 1]
        object.removeAll()
        #expect(object.isEmpty)
        object["b"] = 2
        #expect(object.keys == ["b"])
    }

    @Test func mergingAddsAndReplaces() {
        let merged = (["a": 1, "b": 2] as JSONObject).merging(["b": 20, "c": 30])
        #expect(merged.keys == ["a", "b", "c"])
        #expect(merged.values == [1, 20, 30])
    }

    @Test(arguments: [(3, 7), (0, 5), (5, 0), (10, 10), (4, 20), (20, 4), (30, 30)])
    func mergingKeepsOrderAndLeavesTheOriginalAlone(ownCount: Int, otherCount: Int) {
        // `other` overlaps the second half of `base`'s keys and adds new ones.
        let base = JSONObject(uniqueKeysWithLastValues: (0..<ownCount).map { ("k\($0)", JSONValue.int($0)) })
        let start = ownCount / 2
        let other = JSONObject(
            uniqueKeysWithLastValues: (start..<(start + otherCount)).map { ("k\($0)", JSONValue.int(-$0)) }
        )
        let merged = base.merging(other)
        let expectedKeys = (0..<max(ownCount, start + otherCount)).map { "k\($0)" }
        #expect(merged.keys == expectedKeys)
        for (position, key) in expectedKeys.enumerated() {
            let fromOther = position >= start && position < start + otherCount
            #expect(merged[key] == .int(fromOther ? -position : position))
        }
        #expect(base.count == ownCount)
        #expect(base.values.allSatisfy { ($0.intValue ?? -1) >= 0 })
    }

    @Test func filterKeepsOrder() {
        let object: JSONObject = ["a": 1, "b": 2, "c": 3, "d": 4]
        let even = object.filter { ($0.value.intValue ?? 0) % 2 == 0 }
        #expect(even.keys == ["b", "d"])
    }
}

struct JSONObjectLargeTests {
    private static func key(_ index: Int) -> String { "key\(index)" }

    @Test func manyKeysCanBeInsertedAndFound() {
        var object = JSONObject()
        for index in 0..<500 { object[Self.key(index)] = .int(index) }
        #expect(object.count == 500)
        for index in 0..<500 {
            #expect(object[Self.key(index)] == .int(index))
            #expect(object.index(forKey: Self.key(index)) == index)
        }
        #expect(object["key500"] == nil)
        #expect(object.keys == (0..<500).map(Self.key))
    }

    @Test func removingFromALargeObjectKeepsLookupsRight() {
        var object = JSONObject()
        for index in 0..<100 { object[Self.key(index)] = .int(index) }
        for index in stride(from: 0, to: 100, by: 2) { object[Self.key(index)] = nil }
        #expect(object.count == 50)
        for index in 0..<100 {
            #expect(object[Self.key(index)] == (index.isMultiple(of: 2) ? nil : .int(index)))
        }
        #expect(object.index(forKey: "key1") == 0)
        #expect(object.index(forKey: "key99") == 49)

        object["key0"] = "back"
        #expect(object.keys.last == "key0")
        #expect(object.index(forKey: "key0") == 50)
    }

    @Test func shrinkingBelowTheLinearLimitStillWorks() {
        var object = JSONObject()
        for index in 0..<20 { object[Self.key(index)] = .int(index) }
        for index in 0..<15 { object.removeValue(forKey: Self.key(index)) }
        #expect(object.keys == (15..<20).map(Self.key))
        #expect(object["key17"] == 17)
        object["new"] = true
        #expect(object.index(forKey: "new") == 5)
        for index in 0..<20 { object[Self.key(index)] = .int(-index) }
        #expect(object.count == 21)
        #expect(object["key16"] == -16)
        #expect(object.index(forKey: "key16") == 1)
    }

    @Test func replacingInALargeObjectKeepsPositions() {
        var object = JSONObject()
        for index in 0..<30 { object[Self.key(index)] = .int(index) }
        object["key7"] = "seven"
        #expect(object.index(forKey: "key7") == 7)
        #expect(object[7].value == "seven")
    }

    @Test func largeObjectsAreEqualInAnyOrder() {
        var forward = JSONObject()
        var backward = JSONObject()
        for index in 0..<40 { forward[Self.key(index)] = .int(index) }
        for index in (0..<40).reversed() { backward[Self.key(index)] = .double(Double(index)) }
        #expect(forward == backward)
        var hasher1 = Hasher()
        var hasher2 = Hasher()
        forward.hash(into: &hasher1)
        backward.hash(into: &hasher2)
        #expect(hasher1.finalize() == hasher2.finalize())

        backward["key3"] = 4
        #expect(forward != backward)
    }
}

struct JSONObjectEqualityTests {
    private func hash(_ object: JSONObject) -> Int {
        var hasher = Hasher()
        hasher.combine(object)
        return hasher.finalize()
    }

    @Test func equalityIgnoresOrder() {
        #expect((["a": 1, "b": 2] as JSONObject) == ["b": 2, "a": 1])
        #expect((["a": 1, "b": 2] as JSONObject) != ["a": 1, "c": 2])
        #expect((["a": 1] as JSONObject) != ["a": 1, "b": 2])
        #expect((["a": nil] as JSONObject) != ["b": nil])
    }

    @Test func hashIgnoresOrder() {
        #expect(hash(["a": 1, "b": 2, "c": 3]) == hash(["c": 3, "a": 1, "b": 2]))
        let set: Set<JSONObject> = [["a": 1, "b": 2], ["b": 2, "a": 1], ["a": 2, "b": 1]]
        #expect(set.count == 2)
    }

    @Test func descriptionIsCompactJSONInOrder() {
        let object: JSONObject = ["b": 1, "a": [true]]
        #expect(object.description == #"{"b":1,"a":[true]}"#)
    }
}
