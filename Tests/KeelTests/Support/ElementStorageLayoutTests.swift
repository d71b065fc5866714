import Testing

@testable import Keel

/// The storage of arrays and objects: a one-word header, the elements right after the
/// object's own two words, and a large map's hash index after the elements, kept through
/// growth, copies, removals and shrinking, and freed with the storage.
struct ElementStorageLayoutTests {
    /// The distance from a storage object's address to its first element.
    private static func elementOffset<Element>(_ storage: ElementStorage<Element>) -> Int {
        UnsafeRawPointer(storage.elements) - UnsafeRawPointer(Unmanaged.passUnretained(storage).toOpaque())
    }

    /// A map of `count` keys `k0`, `k1`, … with their numbers, added one at a time.
    private static func map(count: Int) -> OrderedStringMap<Int> {
        var map = OrderedStringMap<Int>()
        for number in 0..<count { map.updateValue(number, forKey: "k\(number)") }
        return map
    }

    /// Expects `map` to hold exactly `keys`, in order, each found by its key with the number
    /// in its name, and `missing` not found.
    private static func expect(
        _ map: OrderedStringMap<Int>,
        holds keys: [String],
        missing: [String] = ["absent", "k999"]
    ) {
        #expect(map.entries.map(\.key) == keys)
        for (position, key) in keys.enumerated() {
            #expect(map.index(forKey: key) == position)
            #expect(map[key] == Int(key.dropFirst()))
        }
        for key in missing { #expect(map.index(forKey: key) == nil) }
    }

    @Test func aHeaderIsOneWordAndTheElementsFollowTheObjectsOwnTwoWords() {
        #expect(MemoryLayout<ElementStorageHeader>.size == 8)
        let entries = ElementStorage<JSONObject.Element>.make(capacity: 8)
        let values = ElementStorage<JSONValue>.make(capacity: 2)
        let others = ElementStorage<Int>.make(capacity: 3)
        #expect(Self.elementOffset(entries) == 24)
        #expect(Self.elementOffset(values) == 24)
        #expect(Self.elementOffset(others) == 24)
        #expect(!entries.hasKeyStamps && entries.keyStamps == nil)
    }

    @Test func aParsedObjectAndALiteralOfEightKeysUseStorageOfTheSameLayout() throws {
        let parsed = try JSONValue(parsing: #"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8}"#)
        guard case .object(let object) = parsed, let storage = object.entryStorage else {
            Issue.record("expected an object with storage")
            return
        }
        #expect(Self.elementOffset(storage) == 24)
        let literal: JSONObject = ["a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8]
        #expect(literal.entryStorage.map(Self.elementOffset) == 24)
        #expect(object == literal)
    }

    @Test func aMapGrowingPastTheSmallCapacityIndexesEveryKey() {
        let limit = ElementStorageHeader.smallCapacity
        for count in [limit, limit + 1, limit + 2, 3 * limit] {
            let map = Self.map(count: count)
            Self.expect(map, holds: (0..<count).map { "k\($0)" })
            #expect(map.entries.storage?.hasKeyStamps == (count > limit))
        }
    }

    @Test func aCopySharesTheIndexUntilEitherChanges() {
        var original = Self.map(count: 20)
        var copy = original
        #expect(copy.removeValue(forKey: "k3") == 3)
        copy.updateValue(20, forKey: "k20")
        Self.expect(original, holds: (0..<20).map { "k\($0)" })
        Self.expect(copy, holds: (0..<21).filter { $0 != 3 }.map { "k\($0)" }, missing: ["k3", "absent"])

        original.updateValue(21, forKey: "k21")
        Self.expect(original, holds: ((0..<20).map { $0 } + [21]).map { "k\($0)" }, missing: ["k20"])
        Self.expect(copy, holds: (0..<21).filter { $0 != 3 }.map { "k\($0)" }, missing: ["k3", "k21"])
    }

    @Test func removingDownToTheSmallCapacityDropsTheIndexAndAddingBringsItBack() {
        let limit = ElementStorageHeader.smallCapacity
        var map = Self.map(count: limit + 3)
        for number in (limit..<(limit + 3)).reversed() { map.removeValue(forKey: "k\(number)") }
        #expect(map.entries.capacity > limit)
        #expect(map.entries.storage?.hasKeyStamps == false)
        Self.expect(map, holds: (0..<limit).map { "k\($0)" }, missing: ["k\(limit)"])

        map.updateValue(limit, forKey: "k\(limit)")
        #expect(map.entries.storage?.hasKeyStamps == true)
        Self.expect(map, holds: (0...limit).map { "k\($0)" })
    }

    @Test func emptyingALargeMapKeepingItsCapacityDropsTheIndex() {
        var map = Self.map(count: 30)
        map.removeAll(keepingCapacity: true)
        #expect(map.entries.capacity >= 30)
        #expect(map.entries.storage?.hasKeyStamps == false)
        Self.expect(map, holds: [], missing: ["k0", "k29"])
        for number in 0..<14 { map.updateValue(number, forKey: "k\(number)") }
        Self.expect(map, holds: (0..<14).map { "k\($0)" })
    }

    @Test func aParsedObjectPastTheSmallCapacityFindsEveryKey() throws {
        let keys = (0..<25).map { "key\($0)" }
        let text = "{" + keys.enumerated().map { #""\#($1)":\#($0)"# }.joined(separator: ",") + "}"
        guard case .object(let object) = try JSONValue(parsing: text) else {
            Issue.record("expected an object")
            return
        }
        #expect(object.entryStorage?.hasKeyStamps == true)
        for (number, key) in keys.enumerated() { #expect(object[key] == .int(number)) }
        #expect(object["key25"] == nil)
    }

    @Test func theIndexIsFreedWithTheLastStorageThatHoldsIt() {
        weak var stamps: KeyStamps?
        do {
            var map = Self.map(count: 20)
            stamps = map.entries.keyStamps
            #expect(stamps != nil)
            var copy = map
            copy.updateValue(0, forKey: "k0")
            map = OrderedStringMap()
            #expect(stamps != nil)
            #expect(copy.count == 20)
        }
        #expect(stamps == nil)
    }

    @Test func aLargeArrayKeepsItsElementsAndAnEmptySlot() {
        let values = (0..<40).map { JSONValue.int($0) }
        var array = JSONArray(values)
        array.append(.string("last"))
        #expect(Array(array) == values + [.string("last")])
        // Room past twelve elements reserves the index slot, which an array leaves empty.
        #expect(array.elements.capacity > ElementStorageHeader.smallCapacity)
        #expect(!array.elements.hasKeyStamps)
    }
}
