import Testing

@testable import Keel

/// Comparing values in place: by their bits first, then with `==`.
struct JSONValueInPlaceEqualityTests {
    @Test func theValueOfAnEntryLiesWhereTheInPlaceComparisonReadsIt() {
        #expect(MemoryLayout<JSONObject.Element>.offset(of: \JSONObject.Element.value) == JSONObject.valueOffset)
    }

    @Test func valuesWithTheSameBitsMatchByBitsAndEqualValuesWithOtherBitsMatchByEquality() {
        let long = "a string longer than fifteen bytes"
        let copy = String(decoding: Array(long.utf8), as: UTF8.self)
        let object: JSONObject = ["a": 1, "b": .string(long), "c": 1.0, "d": .string(copy), "e": nil, "f": "1"]
        let other: JSONObject = ["a": 1, "b": .string(long), "e": nil]
        #expect(object.match(ofValueAt: 0, withValueAt: 0, in: other) == .sameBits)
        #expect(object.match(ofValueAt: 1, withValueAt: 1, in: other) == .sameBits)
        #expect(object.match(ofValueAt: 2, withValueAt: 0, in: other) == .equal)
        #expect(object.match(ofValueAt: 3, withValueAt: 1, in: other) == .equal)
        #expect(object.match(ofValueAt: 4, withValueAt: 2, in: other) == .sameBits)
        #expect(object.match(ofValueAt: 5, withValueAt: 0, in: other) == .different)
        #expect(object.match(ofValueAt: 4, withValueAt: 0, in: other) == .different)
    }

    @Test func scalarEqualityComparesNumbersByValueAndOtherCasesByCase() {
        #expect(JSONValue.int(1) == .double(1))
        #expect(JSONValue.double(1) == .int(1))
        #expect(JSONValue.double(.nan) == .double(.nan))
        #expect(JSONValue.double(0) == .double(-0.0))
        #expect(JSONValue.int(1) != .double(1.5))
        #expect(JSONValue.int(1) != .string("1"))
        #expect(JSONValue.bool(true) != .int(1))
        #expect(JSONValue.null == .null)
        #expect(JSONValue.null != .bool(false))
        #expect(JSONValue.string("a") != .array([]))
        #expect(JSONValue.array([]) != .object([:]))
        #expect(JSONValue.object([:]) != .null)
    }
}
