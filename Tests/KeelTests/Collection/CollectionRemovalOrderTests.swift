import Keel
import Testing

/// Removing models one at a time (`remove`, `pop`, `shift`) keeps positions, lookups and
/// event indexes right, checked against a plain array that does the same.
struct CollectionRemovalOrderTests {
    /// A collection of `count` models with ids 0..<count, and the same models in an array.
    private static func fixture(_ count: Int) -> (Collection<Model>, [Model]) {
        let collection = Collection<Model>((0..<count).map { ["id": .int($0)] })
        return (collection, collection.models)
    }

    /// Checks every position, lookup and `index(of:)` of `collection` against `expected`.
    private static func expectSame(_ collection: Collection<Model>, _ expected: [Model]) {
        #expect(collection.count == expected.count)
        var mismatches = 0
        for (position, model) in expected.enumerated() {
            if collection.at(position) !== model || collection[position] !== model { mismatches += 1 }
            if collection.index(of: model) != position { mismatches += 1 }
            if let id = model.id, collection.get(id) !== model { mismatches += 1 }
        }
        #expect(mismatches == 0)
        #expect(collection.at(expected.count) == nil)
        #expect(collection.at(-1) === expected.last)
    }

    @Test func randomRemovalsPopsShiftsAndAppendsMatchAnArray() {
        var random = CollectionTestRandom(seed: 7)
        let (collection, models) = Self.fixture(500)
        var expected = models
        var removedIndexes: [Int?] = []
        var expectedIndexes: [Int?] = []
        collection.on("remove") { removedIndexes.append($0.index) }
        var nextID = 500
        for step in 0..<2_000 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                guard !expected.isEmpty else { continue }
                let position = Int.random(in: 0..<expected.count, using: &random)
                let victim = expected.remove(at: position)
                expectedIndexes.append(position)
                #expect(collection.remove(victim) === victim)
                #expect(victim.collection == nil)
            case 4:
                guard !expected.isEmpty else { continue }
                let position = Int.random(in: 0..<expected.count, using: &random)
                let victim = expected.remove(at: position)
                expectedIndexes.append(position)
                #expect(collection.remove(victim.id ?? .null) === victim)
            case 5:
                let last = expected.popLast()
                if last != nil { expectedIndexes.append(expected.count) }
                #expect(collection.pop() === last)
            case 6:
                let first = expected.isEmpty ? nil : expected.removeFirst()
                if first != nil { expectedIndexes.append(0) }
                #expect(collection.shift() === first)
            case 7, 8:
                let model = Model(["id": .int(nextID)])
                nextID += 1
                expected.append(model)
                #expect(collection.push(model) === model)
            default:
                // Reading a position or a model's index never changes anything.
                if let model = expected.randomElement(using: &random) {
                    #expect(collection.index(of: model) == expected.firstIndex { $0 === model })
                }
            }
            if step % 97 == 0 { Self.expectSame(collection, expected) }
            if step % 401 == 0 {
                // `models` packs the collection; removals afterwards start over.
                #expect(collection.models.map(\.cid) == expected.map(\.cid))
            }
        }
        Self.expectSame(collection, expected)
        #expect(removedIndexes == expectedIndexes)
        #expect(collection.models.map(\.cid) == expected.map(\.cid))
    }

    @Test func removingFromTheMiddleThenInsertingAtAPositionKeepsOrder() {
        let (collection, models) = Self.fixture(10)
        var expected = models
        for position in [7, 3, 0] {
            collection.remove(expected.remove(at: position))
        }
        let inserted = Model(["id": 100])
        collection.add(inserted, at: 2)
        expected.insert(inserted, at: 2)
        Self.expectSame(collection, expected)
        collection.remove(expected.remove(at: 4))
        collection.unshift(["id": 101])
        expected.insert(collection.at(0) ?? inserted, at: 0)
        Self.expectSame(collection, expected)
        #expect(collection.map(\.id) == expected.map(\.id))
    }

    @Test func aComparatorStillPlacesModelsAddedAfterRemovals() {
        let collection = Collection<Model>((0..<20).map { ["id": .int($0), "rank": .int($0 * 2)] })
        collection.comparator = .attribute("rank")
        for id in [3, 9, 15] { collection.remove(JSONValue.int(id)) }
        collection.add(["id": 100, "rank": 7])
        #expect(collection.index(of: collection.get(100) ?? Model()) == 3)
        #expect(
            collection.pluck("rank").compactMap { $0?.intValue } == [
                0, 2, 4, 7, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 32, 34, 36, 38,
            ]
        )
    }

    @Test func iteratingAfterRemovalsSeesTheRemainingModelsInOrder() {
        let (collection, models) = Self.fixture(100)
        for model in models where model.id?.intValue.map({ $0 % 3 == 0 }) ?? false { collection.remove(model) }
        let expected = models.filter { ($0.id?.intValue ?? 0) % 3 != 0 }
        #expect(Array(collection).map(\.cid) == expected.map(\.cid))
        #expect(collection.slice(2, 5).map(\.cid) == expected[2..<5].map(\.cid))
        #expect(collection.first === expected.first)
        #expect(collection.last === expected.last)
    }

    @Test func aRemovedModelIsReleased() {
        let collection = Collection<Model>((0..<10).map { ["id": .int($0)] })
        weak var removed: Model?
        do {
            let model = collection.get(4)
            removed = model
            collection.remove(model ?? Model())
        }
        #expect(removed == nil)
        #expect(collection.count == 9)
    }

    @Test func popAndShiftEmptyTheCollectionInOrder() {
        let (collection, models) = Self.fixture(9)
        var order: [Model] = []
        var indexes: [Int?] = []
        collection.on("remove") { indexes.append($0.index) }
        while let first = collection.shift() {
            order.append(first)
            if let last = collection.pop() { order.append(last) }
        }
        #expect(order.map(\.cid) == [0, 8, 1, 7, 2, 6, 3, 5, 4].map { models[$0].cid })
        #expect(indexes == [0, 7, 0, 5, 0, 3, 0, 1, 0])
        #expect(collection.isEmpty)
        collection.add(["id": 1])
        #expect(collection.count == 1)
    }

    @Test func aRemoveHandlerCanAddTheModelBack() {
        let collection = Collection<Model>([["id": 1], ["id": 2], ["id": 3]])
        let model = collection.get(2) ?? Model()
        var readded = false
        collection.on("remove") { event in
            guard !readded, let removed = event.model else { return }
            readded = true
            collection.add(removed)
        }
        collection.remove(model)
        #expect(collection.get(2) === model)
        #expect(model.collection === collection)
        var changes = 0
        collection.on("change") { _ in changes += 1 }
        model.set(["title": "back"])
        #expect(changes == 1)
    }
}
