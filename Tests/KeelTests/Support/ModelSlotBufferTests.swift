import Testing

@testable import Keel

/// The slots of an integer-keyed index grow in place and hold their models strongly: growth
/// past the capacity, with models removed in between, keeps every lookup, and a model the
/// index lets go of is released.
struct ModelSlotBufferTests {
    @Test func slotsKeepTheirModelsAcrossGrowth() {
        var slots = ModelSlotBuffer()
        let models = (0..<1_000).map { _ in Model() }
        for model in models { slots.append(model) }
        slots.appendNil(count: 3)
        #expect(slots.count == 1_003)
        #expect(slots.capacity >= 1_003)
        for (position, model) in models.enumerated() { #expect(slots[position] === model) }
        #expect(slots[1_001] == nil)
        slots[1_002] = models[0]
        #expect(slots[1_002] === models[0])
    }

    @Test func slotsReleaseTheirModels() {
        weak var dropped: Model?
        weak var emptied: Model?
        weak var heldToTheEnd: Model?
        do {
            var slots = ModelSlotBuffer()
            var model: Model? = Model()
            dropped = model
            slots.append(model ?? Model())
            model = Model()
            emptied = model
            slots.append(model ?? Model())
            model = nil
            slots.reserveCapacity(10_000)
            slots[0] = nil
            #expect(dropped == nil)
            slots.removeAll(keepingCapacity: true)
            #expect(emptied == nil)
            #expect(slots.capacity >= 10_000)
            model = Model()
            heldToTheEnd = model
            slots.append(model ?? Model())
            model = nil
            #expect(heldToTheEnd != nil, "the slots alone hold the last model")
        }
        #expect(heldToTheEnd == nil, "the buffer's deinit releases the models left in its slots")
    }

    @Test func anIndexMatchesADictionaryThroughGrowthAndRemovals() {
        var generator = CollectionTestRandom(seed: 33)  // SplitMix64, so that a failure repeats
        for round in 0..<20 {
            var index = IntKeyedModels()
            var expected: [Int: Model] = [:]
            // Keys mostly counting up, as ids and client ids do, some far and some reused.
            var next = round * 37
            for _ in 0..<2_000 {
                switch Int.random(in: 0..<10, using: &generator) {
                case 0..<5:
                    let model = Model()
                    index.insert(model, forKey: next)
                    expected[next] = model
                    next += Int.random(in: 1...2, using: &generator)
                case 5..<7:
                    guard let key = expected.keys.randomElement(using: &generator), let model = expected[key] else {
                        continue
                    }
                    index.remove(model, forKey: key)
                    expected[key] = nil
                case 7:
                    let key = Int.random(in: -50..<(next + 50), using: &generator)
                    let model = Model()
                    index.insert(model, forKey: key)
                    expected[key] = model
                case 8:
                    index.reserveCapacity(index.count + Int.random(in: 0..<500, using: &generator))
                default:
                    let key = Int.random(in: -50..<(next + 50), using: &generator)
                    index.remove(Model(), forKey: key)
                }
                #expect(index.count == expected.count, "round \(round)")
            }
            for key in -60..<(next + 60) where index[key] !== expected[key] {
                Issue.record(
                    "round \(round), key \(key): \(String(describing: index[key])) instead of \(String(describing: expected[key]))"
                )
            }
        }
    }
}
