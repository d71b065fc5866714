import Keel
import Testing

/// Object literals (`JSONObject` and `JSONValue`): the keys in the order written, a repeated
/// key in its first position with its last value, keys compared as strings whatever their
/// bits.
struct JSONObjectLiteralTests {
    @Test func aRepeatedKeyKeepsItsFirstPositionAndItsLastValue() {
        let object = JSONObject(dictionaryLiteral: ("a", 1), ("b", 2), ("a", 3), ("c", 4), ("b", 5))
        #expect(object.keys == ["a", "b", "c"])
        #expect(object.values == [3, 5, 4])
    }

    @Test func anObjectValueLiteralTreatsARepeatedKeyTheSameWay() {
        let value = JSONValue(dictionaryLiteral: ("a", 1), ("b", 2), ("a", 3))
        #expect(value.objectValue?.keys == ["a", "b"])
        #expect(value["a"] == 3)
    }

    @Test func keysWithDifferentBitsButEqualTextAreTheSameKey() {
        let long = "a key longer than fifteen bytes"
        let copy = String(decoding: Array(long.utf8), as: UTF8.self)
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        let object = JSONObject(dictionaryLiteral: (long, 1), (composed, 2), (copy, 3), (decomposed, 4))
        #expect(object.count == 2)
        #expect(object[long] == 3)
        #expect(object[composed] == 4)
        #expect(object.keys == [long, composed])
    }

    @Test func aLargeLiteralKeepsItsOrderAndFindsEveryKey() {
        let pairs = (0..<20).map { ("k\($0)", JSONValue.int($0)) } + [("k3", JSONValue.int(-3))]
        let object = JSONObject(
            dictionaryLiteral: pairs[0],
            pairs[1],
            pairs[2],
            pairs[3],
            pairs[4],
            pairs[5],
            pairs[6],
            pairs[7],
            pairs[8],
            pairs[9],
            pairs[10],
            pairs[11],
            pairs[12],
            pairs[13],
            pairs[14],
            pairs[15],
            pairs[16],
            pairs[17],
            pairs[18],
            pairs[19],
            pairs[20]
        )
        #expect(object.keys == (0..<20).map { "k\($0)" })
        #expect(object["k3"] == -3)
        #expect(object["k19"] == 19)
    }
}
