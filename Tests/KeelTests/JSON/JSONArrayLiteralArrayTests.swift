import Testing

@testable import Keel

/// The array of an array literal: when nothing else holds it, the JSON array takes its elements out
/// of it; otherwise (a constant literal, an array held elsewhere) it copies them and the array
/// stays as it was.
///
/// Either way the elements are in the order written.
struct JSONArrayLiteralArrayTests {
    /// A string too long to be held in a string's own bits, so it is reference-counted.
    private static func longText(_ i: Int) -> String { "an element longer than fifteen bytes, \(i)" }

    @Test func aLiteralBuiltAtRunTimeKeepsItsElementsInOrder() {
        for i in 0..<3 {
            let array: JSONArray = [.int(i), .string(Self.longText(i)), ["n": .int(i)], [.int(i), .null]]
            #expect(Array(array) == [.int(i), .string(Self.longText(i)), ["n": .int(i)], [.int(i), .null]])
            let value: JSONValue = [.string(Self.longText(i)), .int(i)]
            #expect(value == .array(JSONArray([.string(Self.longText(i)), .int(i)])))
        }
    }

    @Test func aConstantLiteralGivesEqualArraysEveryTime() {
        let arrays = (0..<3).map { _ -> JSONArray in ["a", 1, [2], ["k": 3]] }
        #expect(arrays.allSatisfy { $0 == arrays[0] })
        #expect(arrays[0].count == 4)
    }

    @Test func anArrayHeldElsewhereIsCopiedFromAndLeftUnchanged() {
        let values: [JSONValue] = [.string(Self.longText(1)), .int(2), ["x": 1]]
        let array = JSONArray(literal: values)
        #expect(Array(array) == values)
        #expect(values == [.string(Self.longText(1)), .int(2), ["x": 1]])
    }

    @Test func anEmptyLiteralIsAnEmptyArray() {
        let array: JSONArray = []
        #expect(array.isEmpty)
    }
}
