import Keel
import Testing

struct JSONValueLiteralTests {
    @Test func literalsCreateTheMatchingCases() {
        let null: JSONValue = nil
        let bool: JSONValue = true
        let int: JSONValue = 42
        let double: JSONValue = 9.5
        let string: JSONValue = "Dune"
        let array: JSONValue = [1, "a", nil]
        let object: JSONValue = ["title": "Dune", "year": 1965]

        #expect(null.isNull)
        #expect(bool.boolValue == true)
        #expect(int.intValue == 42)
        if case .int = int {} else { Issue.record("an integer literal should be .int") }
        if case .double = double {} else { Issue.record("a float literal should be .double") }
        #expect(double.doubleValue == 9.5)
        #expect(string.stringValue == "Dune")
        #expect(array.arrayValue == [.int(1), .string("a"), .null])
        #expect(object.objectValue?.keys == ["title", "year"])
    }

    @Test func stringInterpolationMakesAString() {
        let value: JSONValue = "note \(7)"
        #expect(value == .string("note 7"))
    }

    @Test func dictionaryLiteralKeepsWrittenOrder() {
        let value: JSONValue = ["z": 1, "a": 2, "m": 3]
        #expect(value.objectValue?.keys == ["z", "a", "m"])
    }

    @Test func initializersWrapEachType() {
        #expect(JSONValue("x") == .string("x"))
        #expect(JSONValue(true) == .bool(true))
        #expect(JSONValue(3) == .int(3))
        #expect(JSONValue(2.5) == .double(2.5))
        #expect(JSONValue([JSONValue(1)]) == .array([.int(1)]))
        #expect(JSONValue(JSONObject(["a": 1])) == .object(["a": 1]))
    }
}

struct JSONValueEqualityTests {
    @Test func numbersCompareByValue() {
        #expect(JSONValue.int(1) == .double(1.0))
        #expect(JSONValue.double(1.0) == .int(1))
        #expect(JSONValue.int(1) != .double(1.5))
        #expect(JSONValue.int(0) == .double(-0.0))
        #expect(JSONValue.double(0.0) == .double(-0.0))
    }

    @Test func integersCompareByValue() {
        #expect(JSONValue.int(7) == .int(7))
        #expect(JSONValue.int(7) != .int(8))
        #expect(JSONValue.int(.min) == .int(.min))
        #expect(JSONValue.int(-1) != .int(.max))
        #expect(JSONValue.int(0) != .null)
        #expect(JSONValue.null != .int(0))
    }

    @Test func largeIntegersAreNotEqualToRoundedDoubles() {
        // Double(Int.max) is 2^63, which is not an Int.
        #expect(JSONValue.int(.max) != .double(Double(Int.max)))
        #expect(JSONValue.int((1 << 53) + 1) != .double(Double((1 << 53) + 1)))
    }

    @Test func nanEqualsNaN() {
        #expect(JSONValue.double(.nan) == .double(.nan))
        #expect(JSONValue.double(.nan) != .double(1))
        #expect(JSONValue.double(.infinity) == .double(.infinity))
        #expect(JSONValue.double(.infinity) != .double(-.infinity))
    }

    @Test func differentKindsAreNotEqual() {
        #expect(JSONValue.int(1) != .string("1"))
        #expect(JSONValue.bool(true) != .int(1))
        #expect(JSONValue.null != .bool(false))
        #expect(JSONValue.array([]) != .object([:]))
        #expect(JSONValue.string("") != .null)
    }

    @Test func arraysCompareElementByElement() {
        #expect(JSONValue([1, 2.0, "a"]) == [1.0, 2, "a"])
        #expect(JSONValue([1, 2]) != [2, 1])
        #expect(JSONValue([1, 2]) != [1, 2, 3])
    }

    @Test func objectsCompareInAnyOrder() {
        #expect(JSONValue(["a": 1, "b": [true]]) == ["b": [true], "a": 1.0])
        #expect(JSONValue(["a": 1]) != ["a": 2])
        #expect(JSONValue(["a": 1]) != ["b": 1])
        #expect(JSONValue(["a": 1]) != ["a": 1, "b": 2])
        #expect(JSONValue(["a": nil]) != [:])
    }
}

struct JSONValueHashingTests {
    private func hash(_ value: JSONValue) -> Int {
        var hasher = Hasher()
        hasher.combine(value)
        return hasher.finalize()
    }

    @Test func equalNumbersHashAlike() {
        #expect(hash(.int(1)) == hash(.double(1.0)))
        #expect(hash(.int(0)) == hash(.double(-0.0)))
        #expect(hash(.double(.nan)) == hash(.double(-.nan)))
        #expect(hash(.int(-5)) == hash(.double(-5)))
    }

    @Test func setsMergeEqualValues() {
        let set: Set<JSONValue> = [1, 1.0, "1", .double(.nan), .double(.nan), ["a": 1, "b": 2], ["b": 2.0, "a": 1]]
        #expect(set.count == 4)
    }

    @Test func objectsHashIndependentlyOfOrder() {
        #expect(hash(["a": 1, "b": [1, 2], "c": nil]) == hash(["c": nil, "b": [1.0, 2], "a": 1]))
    }

    @Test func equalGeneratedValuesHashAlike() throws {
        var generator = JSONValueGenerator(seed: 7)
        for _ in 0..<200 {
            let value = generator.value()
            let reparsed = try JSONValue(parsing: value.jsonString())
            #expect(reparsed == value)
            #expect(hash(reparsed) == hash(value))
        }
    }
}

struct JSONValueOrderingTests {
    @Test func numbersOrderByValueAcrossIntAndDouble() {
        #expect(JSONValue.sortsBefore(1, 2.5))
        #expect(JSONValue.sortsBefore(2.5, 3))
        #expect(JSONValue.sortsBefore(-1, 0))
        #expect(!JSONValue.sortsBefore(2, 2.0))
        #expect(!JSONValue.sortsBefore(2.0, 2))
        #expect(JSONValue.sortsBefore(.int(.max - 1), .int(.max)))
    }

    @Test func nanSortsLast() {
        #expect(JSONValue.sortsBefore(1e300, .double(.nan)))
        #expect(!JSONValue.sortsBefore(.double(.nan), 1))
        #expect(!JSONValue.sortsBefore(.double(.nan), .double(.nan)))
    }

    @Test func stringsOrderByUnicodeScalars() {
        #expect(JSONValue.sortsBefore("B", "a"))
        #expect(JSONValue.sortsBefore("a", "b"))
        #expect(JSONValue.sortsBefore("a", "ab"))
        #expect(JSONValue.sortsBefore("z", "é"))
        #expect(!JSONValue.sortsBefore("b", "a"))
    }

    @Test func falseSortsBeforeTrue() {
        #expect(JSONValue.sortsBefore(false, true))
        #expect(!JSONValue.sortsBefore(true, false))
        #expect(!JSONValue.sortsBefore(true, true))
    }

    @Test func kindsOrderNullBoolNumberStringArrayObject() {
        let ordered: [JSONValue] = [nil, true, -1e300, "", [], [:]]
        for (index, lower) in ordered.enumerated() {
            for higher in ordered[(index + 1)...] {
                #expect(JSONValue.sortsBefore(lower, higher), "\(lower) should sort before \(higher)")
                #expect(!JSONValue.sortsBefore(higher, lower), "\(higher) should not sort before \(lower)")
            }
        }
    }

    @Test func arraysOrderLexicographically() {
        #expect(JSONValue.sortsBefore([1, 2], [1, 3]))
        #expect(JSONValue.sortsBefore([1], [1, 0]))
        #expect(!JSONValue.sortsBefore([2], [1, 5]))
    }

    @Test func objectsAreEqualForSorting() {
        #expect(!JSONValue.sortsBefore(["a": 1], ["b": 2]))
        #expect(!JSONValue.sortsBefore(["b": 2], ["a": 1]))
    }

    @Test func sortingMixedValuesOrdersByKindThenValue() {
        let values: [JSONValue] = ["b", 3, nil, 1.5, false, "a", [1], 2]
        #expect(values.sorted(by: JSONValue.sortsBefore) == [nil, false, 1.5, 2, 3, "a", "b", [1]])
    }
}

struct JSONValueAccessorTests {
    @Test func accessorsReturnNilForOtherKinds() {
        let value: JSONValue = "x"
        #expect(value.boolValue == nil)
        #expect(value.intValue == nil)
        #expect(value.doubleValue == nil)
        #expect(value.arrayValue == nil)
        #expect(value.objectValue == nil)
        #expect(!value.isNull)
        #expect(JSONValue.int(1).stringValue == nil)
    }

    @Test func intValueAcceptsOnlyExactIntegers() {
        #expect(JSONValue(2.0).intValue == 2)
        #expect(JSONValue(2.5).intValue == nil)
        #expect(JSONValue(1e300).intValue == nil)
        #expect(JSONValue.double(.nan).intValue == nil)
        #expect(JSONValue(7).intValue == 7)
    }

    @Test func doubleValueConvertsIntegers() {
        #expect(JSONValue(3).doubleValue == 3.0)
        #expect(JSONValue(0.25).doubleValue == 0.25)
    }

    @Test func subscriptsReachIntoObjectsAndArrays() {
        let value: JSONValue = ["author": ["name": "Ann"], "tags": ["a", "b"]]
        #expect(value["author"]?["name"] == "Ann")
        #expect(value["missing"] == nil)
        #expect(value["tags"]?[1] == "b")
        #expect(value["tags"]?[2] == nil)
        #expect(value["tags"]?[-1] == nil)
        #expect(value[0] == nil)
        #expect(JSONValue("x")["key"] == nil)
    }

    @Test func descriptionIsCompactJSONExceptThatAStringIsItsText() {
        let value: JSONValue = ["a": [1, true, nil, "x"], "b": 1.5]
        #expect(value.description == #"{"a":[1,true,null,"x"],"b":1.5}"#)
        #expect("\(JSONValue.string("q\""))" == #"q""#)
        #expect(String(reflecting: JSONValue.string("q\"")) == #""q\"""#)
    }
}
