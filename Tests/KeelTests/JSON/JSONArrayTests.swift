import Keel
import Testing

struct JSONArrayCreationTests {
    @Test func literalsSwiftArraysAndSequencesMakeTheSameArrayCase() {
        let swiftArray: [JSONValue] = [1, "a", nil]
        let fromLiteral: JSONValue = [1, "a", nil]
        let fromCaseLiteral = JSONValue.array([1, "a", nil])
        let fromSwiftArray = JSONValue.array(swiftArray)
        let fromInitializer = JSONValue(swiftArray)
        let fromSequence = JSONValue.array(JSONArray(swiftArray.lazy.map { $0 }))
        for value in [fromCaseLiteral, fromSwiftArray, fromInitializer, fromSequence] {
            #expect(value == fromLiteral)
        }
        #expect(fromLiteral.arrayValue == swiftArray)
    }

    @Test func matchingTheCaseGivesACollectionOfTheElements() throws {
        let value: JSONValue = ["a", "b", 3]
        guard case .array(let elements) = value else {
            Issue.record("an array literal should be .array")
            return
        }
        #expect(elements.count == 3)
        #expect(elements[1] == "b")
        #expect(elements.map(\.stringValue) == ["a", "b", nil])
        #expect(Array(elements) == ["a", "b", 3])
        #expect(elements.last == 3)
        #expect(elements.firstIndex(of: "b") == 1)
        #expect(value[2] == 3)
        #expect(value[3] == nil)
    }

    @Test func anEmptyArrayIsEmpty() {
        let empty = JSONArray()
        #expect(empty.isEmpty)
        #expect(JSONValue.array(empty) == [])
        #expect(JSONValue.array([]).arrayValue == [])
        #expect(Array(empty).isEmpty)
    }

    @Test func theDescriptionIsCompactJSON() {
        let array: JSONArray = [1, "a", ["b": nil], []]
        #expect(array.description == #"[1,"a",{"b":null},[]]"#)
        #expect(String(describing: JSONValue.array(array)) == array.description)
    }
}

struct JSONArrayMutationTests {
    @Test func rangeReplacingOperationsWorkAsOnASwiftArray() {
        var array: JSONArray = [1, 2, 3]
        var swiftArray: [JSONValue] = [1, 2, 3]
        func check(_ change: (inout JSONArray) -> Void, _ same: (inout [JSONValue]) -> Void) {
            change(&array)
            same(&swiftArray)
            #expect(Array(array) == swiftArray)
        }
        check({ $0.append(4) }, { $0.append(4) })
        check({ $0.insert("first", at: 0) }, { $0.insert("first", at: 0) })
        check({ $0.append(contentsOf: [5, 6]) }, { $0.append(contentsOf: [5, 6]) })
        check(
            { $0.replaceSubrange(1..<3, with: ["x", "y", "z"]) },
            { $0.replaceSubrange(1..<3, with: ["x", "y", "z"]) }
        )
        check({ $0.remove(at: 2) }, { $0.remove(at: 2) })
        check({ $0.removeLast() }, { $0.removeLast() })
        check({ $0.removeAll { $0.intValue == 4 } }, { $0.removeAll { $0.intValue == 4 } })
        check({ $0.removeSubrange(0..<1) }, { $0.removeSubrange(0..<1) })
        check({ $0.reserveCapacity(100) }, { $0.reserveCapacity(100) })
        check({ $0[0] = .null }, { $0[0] = .null })
        check({ $0.swapAt(0, 1) }, { $0.swapAt(0, 1) })
        check({ $0.removeAll(keepingCapacity: true) }, { $0.removeAll(keepingCapacity: true) })
        check(
            { $0.append(contentsOf: (0..<100).map { .int($0) }) },
            { $0.append(contentsOf: (0..<100).map { .int($0) }) }
        )
        check({ $0.removeAll() }, { $0.removeAll() })
    }

    @Test func elementsSortInPlace() {
        var array: JSONArray = [3, "b", 1.5, nil, "a"]
        array.sort(by: JSONValue.sortsBefore)
        #expect(Array(array) == [nil, 1.5, 3, "a", "b"])
    }
}

struct JSONArrayValueSemanticsTests {
    @Test func equalArraysAreEqualAndHashAlike() {
        let a: JSONArray = [1, 2.5, ["k": [true]]]
        let b: JSONArray = [1.0, 2.5, ["k": [true]]]
        let reordered: JSONArray = [2.5, 1, ["k": [true]]]
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != reordered)
        #expect(Set([a, b, reordered]).count == 2)
        #expect(JSONValue.array(a).hashValue == JSONValue.array(b).hashValue)
        #expect(JSONValue.array(a) != .array(reordered))
    }

    @Test func changingACopyOfANestedArrayLeavesTheOriginalAlone() {
        let original: JSONValue = [[1, 2], ["k": [3]]]
        var copy = original
        guard case .array(var outer) = copy, case .array(var inner) = outer[0] else {
            Issue.record("the copy should be an array of arrays")
            return
        }
        inner.append(9)
        inner[0] = "changed"
        outer[0] = .array(inner)
        outer.append("new")
        copy = .array(outer)
        #expect(original == [[1, 2], ["k": [3]]])
        #expect(copy == [["changed", 2, 9], ["k": [3]], "new"])
    }

    @Test func changingACopyOfANestedObjectLeavesTheOriginalAlone() {
        let original: JSONObject = ["list": [["id": 1]], "meta": ["count": 1]]
        var copy = original
        var meta = copy["meta"]?.objectValue ?? [:]
        meta["count"] = 2
        meta["extra"] = true
        copy["meta"] = .object(meta)
        var list = copy["list"]?.arrayValue ?? []
        list.append(["id": 2])
        copy["list"] = .array(list)
        #expect(original == ["list": [["id": 1]], "meta": ["count": 1]])
        #expect(copy == ["list": [["id": 1], ["id": 2]], "meta": ["count": 2, "extra": true]])
        #expect(original.keys == ["list", "meta"])
    }

    @Test func copiesShareNothingObservableAfterEitherChanges() {
        var a: JSONArray = [1, 2, 3]
        var b = a
        b.append(4)
        a[0] = "a"
        let c = a
        a.removeAll()
        #expect(Array(a).isEmpty)
        #expect(Array(b) == [1, 2, 3, 4])
        #expect(Array(c) == ["a", 2, 3])
    }

    @Test func largeObjectsKeepTheirOrderAndLookupsAcrossCopies() {
        var object = JSONObject()
        for key in 0..<40 { object["k\(key)"] = .int(key) }
        var copy = object
        copy.removeValue(forKey: "k3")
        copy["k40"] = [40]
        #expect(object.count == 40 && object["k3"] == 3 && object["k40"] == nil)
        #expect(copy.count == 40 && copy["k3"] == nil && copy["k40"] == [40])
        #expect(copy.keys.last == "k40")
        #expect(copy.index(forKey: "k4") == 3)
    }
}

struct JSONArrayConversionTests {
    @Test func anArrayRoundTripsThroughCodableAndJSONRepresentable() throws {
        let array: JSONArray = [1, "a", ["k": [nil]]]
        let encoded = try JSONValueEncoder().encode(array)
        #expect(encoded == .array(array))
        #expect(try JSONValueDecoder().decode(JSONArray.self, from: encoded) == array)
        #expect(JSONArray(json: array.json) == array)
        #expect(JSONArray(json: ["k": 1]) == nil)
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(JSONArray.self, from: "text") }
    }

    @Test func arraysBuiltFromAnySequenceHoldItsElements() {
        #expect(Array(JSONArray((1...3).lazy.map { JSONValue($0) })) == [1, 2, 3])
        #expect(Array(JSONArray(AnySequence([JSONValue("x")]))) == ["x"])
        #expect(Array(JSONArray([JSONValue]())).isEmpty)
        let slice: ArraySlice<JSONValue> = [1, 2, 3][1...]
        #expect(Array(JSONArray(slice)) == [2, 3])
    }
}
