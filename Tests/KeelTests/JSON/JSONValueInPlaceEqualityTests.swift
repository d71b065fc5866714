import Testing

@testable import Keel

/// Comparing values in place: by their bits first, then with `==`.
struct JSONValueInPlaceEqualityTests {
    @Test func theValueOfAnEntryLiesWhereTheInPlaceComparisonReadsIt() {
        let object: JSONObject = ["a": 1, "b": "two"]
        for position in object.indices {
            let offset =
                UnsafeRawPointer(object.valueAddress(at: position)) - UnsafeRawPointer(object.keyAddress(at: position))
            #expect(offset == MemoryLayout<JSONObject.Element>.offset(of: \JSONObject.Element.value))
            #expect(object.keyAddress(at: position).pointee == object[position].key)
            #expect(object.valueAddress(at: position).pointee == object[position].value)
        }
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

    /// Strings with other bits are compared where they lie, as `String`s: by canonical
    /// equivalence, small and large, against a value or another object's entry.
    @Test func stringsWithOtherBitsMatchByStringEquality() {
        let long = "a string longer than fifteen bytes"
        let longCopy = String(decoding: Array(long.utf8), as: UTF8.self)
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        let object: JSONObject = ["long": .string(long), "accent": .string(composed), "short": "note 1"]
        let other: JSONObject = ["long": .string(longCopy), "accent": .string(decomposed), "short": "note 2"]
        #expect(object.match(ofValueAt: 0, withValueAt: 0, in: other) == .equal)
        #expect(object.match(ofValueAt: 1, withValueAt: 1, in: other) == .equal)
        #expect(object.match(ofValueAt: 2, withValueAt: 2, in: other) == .different)
        #expect(object.match(ofValueAt: 0, withValueAt: 2, in: other) == .different)
        #expect(object.match(ofValueAt: 0, with: .string(longCopy)) == .equal)
        #expect(object.match(ofValueAt: 1, with: .string(decomposed)) == .equal)
        #expect(object.match(ofValueAt: 2, with: "note 2") == .different)
        #expect(object.match(ofValueAt: 2, with: 1) == .different)
        #expect(object.match(ofValueAt: 0, with: .array([.string(long)])) == .different)
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
