import Testing

@testable import Keel

/// Models that share a layout share only their keys' description: random `set`s, `unset`s
/// and `clear`s on one model never change another's keys or values, and each model keeps
/// agreeing with a plain list of its pairs.
struct SharedLayoutIndependenceTests {
    @Test(arguments: [11, 12, 13] as [UInt64])
    func changingOneModelLeavesTheModelsThatSharedItsLayoutAlone(seed: UInt64) {
        var random = JSONValueGenerator(seed: seed)
        let count = 6
        let models = (0..<count).map { Model(["id": .int($0), "title": "t", "rank": .int($0 % 3)]) }
        var expected: [[(String, JSONValue)]] = (0..<count).map { [("id", .int($0)), ("title", "t"), ("rank", .int($0 % 3))] }
        #expect(models.allSatisfy { $0.layout === models[0].layout })
        for step in 0..<400 {
            let target = random.next(below: count)
            let key = ["id", "title", "rank", "extra", "more", "k\(random.next(below: 20))"][random.next(below: 6)]
            switch random.next(below: 8) {
            case 0:
                models[target].unset(key)
                expected[target].removeAll { $0.0 == key }
            case 1 where random.next(below: 10) == 0:
                models[target].clear()
                expected[target] = []
            default:
                let value = random.value(depth: 1)
                models[target].set(key, value)
                if let position = expected[target].firstIndex(where: { $0.0 == key }) {
                    expected[target][position].1 = value
                } else {
                    expected[target].append((key, value))
                }
            }
            for (offset, model) in models.enumerated() {
                #expect(model.attributes.keys == expected[offset].map(\.0), "keys of model \(offset) at step \(step)")
                #expect(Array(model.layout.keys) == expected[offset].map(\.0), "layout of model \(offset) at step \(step)")
                for (key, value) in expected[offset] {
                    #expect(model.get(key) == value, "\(key) of model \(offset) at step \(step)")
                }
            }
        }
    }

    @Test func twoModelsWithTheSameKeysStayApartWhenOneGainsAKey() {
        let first = Model(["id": 1, "title": "a"])
        let second = Model(["id": 2, "title": "b"])
        #expect(first.layout === second.layout)
        first.set("rank", 5)
        #expect(second.attributes.keys == ["id", "title"])
        #expect(second.get("rank") == nil)
        #expect(second.get("title") == "b")
        #expect(first.layout !== second.layout)
    }
}
