import Testing

@testable import Keel

/// Random sequences of inserts, replacements and removals on a `JSONObject` agree with a plain
/// list of pairs at every step: the keys in insertion order (a removed key re-added goes
/// last), the values, lookups, equality in any order, and copies that change independently,
/// both for small objects (searched linearly) and past the hash index's threshold.
struct JSONObjectReferenceModelTests {
    /// The plain model: the pairs in order, changed as the documentation says an object changes.
    private struct Reference {
        var pairs: [(String, JSONValue)] = []

        mutating func set(_ key: String, _ value: JSONValue) {
            if let position = pairs.firstIndex(where: { $0.0 == key }) {
                pairs[position].1 = value
            } else {
                pairs.append((key, value))
            }
        }

        mutating func remove(_ key: String) -> JSONValue? {
            guard let position = pairs.firstIndex(where: { $0.0 == key }) else { return nil }
            return pairs.remove(at: position).1
        }
    }

    /// Checks everything an object says about its contents against the reference.
    private static func expectAgreement(
        _ object: JSONObject,
        _ reference: Reference,
        step: Int,
        random: inout JSONValueGenerator
    ) {
        #expect(object.keys == reference.pairs.map(\.0), "keys at step \(step)")
        #expect(object.values == reference.pairs.map(\.1), "values at step \(step)")
        #expect(object.count == reference.pairs.count, "count at step \(step)")
        for (position, pair) in reference.pairs.enumerated() {
            #expect(object.index(forKey: pair.0) == position, "position of \(pair.0) at step \(step)")
            #expect(object[pair.0] == pair.1, "value of \(pair.0) at step \(step)")
        }
        // Equal in any order, and not equal once one value differs.
        let shuffled = reference.pairs.shuffled(using: &random)
        let rebuilt = JSONObject(uniqueKeysWithLastValues: shuffled)
        #expect(rebuilt == object, "equality in another order at step \(step)")
        #expect(rebuilt.hashValue == object.hashValue, "hash in another order at step \(step)")
        if let first = shuffled.first {
            var changed = rebuilt
            changed[first.0] = .string("changed \(step)")
            #expect(changed != object || first.1 == .string("changed \(step)"), "inequality at step \(step)")
        }
    }

    /// Runs `steps` random changes drawing keys from `keyCount` names; every few steps a copy
    /// is taken, and at the end each copy must still hold what it held when taken.
    private static func run(seed: UInt64, keyCount: Int, steps: Int) {
        var random = JSONValueGenerator(seed: seed)
        var object = JSONObject()
        var reference = Reference()
        var copies: [(object: JSONObject, pairs: [(String, JSONValue)])] = []
        for step in 0..<steps {
            let key = "k\(random.next(below: keyCount))"
            switch random.next(below: 10) {
            case 0, 1, 2:
                let removed = object.removeValue(forKey: key)
                #expect(removed == reference.remove(key), "removed value at step \(step)")
            case 3:
                let value = random.value(depth: 2)
                let old = reference.pairs.first(where: { $0.0 == key })?.1
                #expect(object.updateValue(value, forKey: key) == old, "replaced value at step \(step)")
                reference.set(key, value)
            case 4:
                copies.append((object, reference.pairs))
            default:
                let value = random.value(depth: 1)
                object[key] = value
                reference.set(key, value)
            }
            expectAgreement(object, reference, step: step, random: &random)
        }
        for (offset, copy) in copies.enumerated() {
            #expect(copy.object.keys == copy.pairs.map(\.0), "keys of copy \(offset)")
            #expect(copy.object.values == copy.pairs.map(\.1), "values of copy \(offset)")
        }
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func smallObjectsAgreeWithThePlainModel(seed: UInt64) {
        Self.run(seed: seed, keyCount: 8, steps: 300)
    }

    @Test(arguments: [5, 6, 7] as [UInt64])
    func objectsPastTheHashIndexThresholdAgreeWithThePlainModel(seed: UInt64) {
        Self.run(seed: seed, keyCount: 40, steps: 600)
    }

    @Test func aCopyTakenPastTheThresholdKeepsItsKeysWhileTheOriginalChanges() {
        var original = JSONObject(uniqueKeysWithLastValues: (0..<20).map { ("k\($0)", JSONValue.int($0)) })
        let copy = original
        original.removeValue(forKey: "k3")
        original["k3"] = 30
        original["new"] = true
        #expect(copy.keys == (0..<20).map { "k\($0)" })
        #expect(copy.index(forKey: "k3") == 3)
        #expect(copy.index(forKey: "new") == nil)
        #expect(original.keys.suffix(2) == ["k3", "new"])
        #expect(original.index(forKey: "k4") == 3)
    }
}

extension JSONValueGenerator: RandomNumberGenerator {}
