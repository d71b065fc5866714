import Testing

@testable import Keel

/// The array of an object literal: when nothing else holds it and its keys are distinct, the object
/// takes its elements out of it; otherwise (a constant literal, an array held elsewhere, a repeated
/// key) the object copies them and the array stays as it was.
///
/// Either way the object has the keys in the order written, each with its last value.
struct JSONObjectLiteralArrayTests {
    /// A string too long to be held in a string's own bits, so it is reference-counted.
    private static func longText(_ i: Int) -> String { "a value longer than fifteen bytes, \(i)" }

    @Test func aLiteralBuiltAtRunTimeKeepsItsKeysAndValues() {
        for i in 0..<3 {
            let tags: JSONValue = .array(JSONArray([.int(i), .string(Self.longText(i))]))
            let object: JSONObject = [
                "id": .int(i), "text": .string(Self.longText(i)), "tags": tags, "nested": ["n": .int(i)],
            ]
            #expect(object.keys == ["id", "text", "tags", "nested"])
            #expect(object["id"] == .int(i))
            #expect(object["text"] == .string(Self.longText(i)))
            #expect(object["tags"] == tags)
            #expect(object["nested"] == ["n": .int(i)])
        }
    }

    @Test func aConstantLiteralGivesEqualObjectsEveryTime() {
        let objects = (0..<3).map { _ -> JSONObject in ["a": 1, "b": "two", "c": [3]] }
        #expect(objects.allSatisfy { $0 == objects[0] })
        #expect(objects[0].keys == ["a", "b", "c"])
    }

    @Test func anArrayHeldElsewhereIsCopiedFromAndLeftUnchanged() {
        let pairs: [(String, JSONValue)] = [("a", .string(Self.longText(1))), ("b", .int(2)), ("c", ["x": 1])]
        let object = JSONObject(literal: pairs)
        #expect(object.keys == ["a", "b", "c"])
        #expect(object["a"] == .string(Self.longText(1)))
        #expect(pairs.map(\.0) == ["a", "b", "c"])
        #expect(pairs[0].1 == .string(Self.longText(1)))
        #expect(pairs[2].1 == ["x": 1])
    }

    @Test func aRepeatedKeyBuiltAtRunTimeKeepsItsFirstPositionAndLastValue() {
        var key = "a key longer than fifteen"
        key += " bytes"
        let object: JSONObject = [
            "a key longer than fifteen bytes": .int(1), "b": .string(Self.longText(2)), key: .int(3),
        ]
        #expect(object.keys == ["a key longer than fifteen bytes", "b"])
        #expect(object["a key longer than fifteen bytes"] == 3)
        #expect(object["b"] == .string(Self.longText(2)))
    }
}
