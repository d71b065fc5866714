import Testing

@testable import Keel

/// Comparing values in place: by their bits first, then with `==`.
struct JSONValueInPlaceEqualityTests {
    @Test func theValueOfAnEntryLiesWhereTheInPlaceComparisonReadsIt() {
        #expect(MemoryLayout<JSONObject.Element>.offset(of: \JSONObject.Element.value) == JSONObject.valueOffset)
    }

    @Test func valuesWithTheSameBitsAreEqualAndEqualValuesWithOtherBitsToo() {
        let long = "a string longer than fifteen bytes"
        let copy = String(decoding: Array(long.utf8), as: UTF8.self)
        let object: JSONObject = ["a": 1, "b": .string(long), "c": 1.0, "d": .string(copy), "e": nil, "f": "1"]
        let other: JSONObject = ["a": 1, "b": .string(long), "e": nil]
        #expect(object.value(at: 0, equalsValueAt: 0, in: other))
        #expect(object.value(at: 1, equalsValueAt: 1, in: other))
        #expect(object.value(at: 2, equalsValueAt: 0, in: other))
        #expect(object.value(at: 3, equalsValueAt: 1, in: other))
        #expect(object.value(at: 4, equalsValueAt: 2, in: other))
        #expect(!object.value(at: 5, equalsValueAt: 0, in: other))
        #expect(!object.value(at: 4, equalsValueAt: 0, in: other))
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
