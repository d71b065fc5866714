import Keel
import Testing

/// Checks `set`, `remove`, `add`, `reset` and `sort` on inputs of 20,000 models.
///
/// A quadratic implementation would not get through these in reasonable time. Nothing here is
/// timed: each test checks that the result is right.
struct CollectionComplexityTests {
    static let size = 20_000

    /// One attributes object per id, with `v` computed from the id.
    private static func attributes(
        _ ids: some Sequence<Int>,
        value: (Int) -> JSONValue = { .int($0) }
    ) -> [Attributes] {
        ids.map { ["id": .int($0), "v": value($0)] }
    }

    // Keel: a set that merges every model of a large collection, in reversed order.
    @Test func setMergingEveryModelOfALargeCollection() throws {
        let n = Self.size
        let collection = Collection<Model>(Self.attributes(0..<n))
        var changes = 0
        var updates: [CollectionChanges] = []
        collection.on("change") { _ in changes += 1 }
        collection.on("update") { if let changes = $0.changes { updates.append(changes) } }

        let result = collection.set(Self.attributes((0..<n).reversed()) { .int($0 * 2) })

        #expect(result.count == n)
        #expect(collection.count == n)
        #expect(changes == n - 1)  // id 0 keeps `v: 0`
        #expect(updates.count == 1)
        let update = try #require(updates.first)
        #expect(update.merged.count == n)
        #expect(update.added.isEmpty)
        #expect(update.removed.isEmpty)
        // Without a comparator the collection takes the input's order.
        #expect(collection.first?.id == .int(n - 1))
        #expect(collection.last?.id == 0)
        var mismatches = 0
        for (offset, model) in collection.enumerated() {
            let id = n - 1 - offset
            if model.id != .int(id) || model["v"] != .int(id * 2) || collection.get(.int(id)) !== model {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
    }

    // Keel: a set that removes half of a large collection and adds as many new models.
    @Test func setReplacingHalfOfALargeCollection() throws {
        let n = Self.size
        let collection = Collection<Model>(Self.attributes(0..<n))
        var removeIndexes: [Int?] = []
        var countsDuringRemove = Set<Int>()
        collection.on("remove") { event in
            removeIndexes.append(event.index)
            countsDuringRemove.insert(collection.count)
        }
        var adds = 0
        collection.on("add") { _ in adds += 1 }

        // Keep the odd ids, add as many new ids after them.
        let input = Self.attributes(stride(from: 1, to: n, by: 2)) + Self.attributes(n..<(n + n / 2))
        collection.set(input)

        #expect(collection.count == n)
        #expect(adds == n / 2)
        #expect(removeIndexes.count == n / 2)
        // The k-th removed model (id 2k) sat at index k once the k before it were gone.
        #expect(removeIndexes == (0..<(n / 2)).map { $0 })
        // Every removal of the call was done before the first `remove` event.
        #expect(countsDuringRemove == [n / 2])
        #expect(collection.map(\.id) == input.map { $0["id"] })
        #expect(collection.get(0) == nil)
        #expect(collection.get(.int(n + n / 2 - 1)) != nil)
    }

    // Keel: removing half of a large collection in one call, from the end backwards.
    @Test func removingHalfOfALargeCollectionInOneCall() {
        let n = Self.size
        let collection = Collection<Model>(Self.attributes(0..<n))
        let victims = stride(from: n - 2, through: 0, by: -2).compactMap { collection.get(.int($0)) }
        var indexes: [Int?] = []
        collection.on("remove") { indexes.append($0.index) }
        var updates = 0
        collection.on("update") { _ in updates += 1 }

        let removed = collection.remove(victims)

        #expect(removed.count == n / 2)
        #expect(updates == 1)
        // Removed from the end backwards, each model is still at its original index at its turn.
        #expect(indexes == stride(from: n - 2, through: 0, by: -2).map { $0 })
        #expect(collection.map(\.id) == stride(from: 1, to: n, by: 2).map { .int($0) })
        #expect(victims.allSatisfy { $0.collection == nil && collection.get($0) == nil })
    }

    // Keel: removing half of a large collection one call at a time, then popping and
    // shifting; each call would cost O(n) if it closed the gap in an array.
    @Test func removingHalfOfALargeCollectionOneModelAtATime() {
        let n = Self.size
        let collection = Collection<Model>(Self.attributes(0..<n))
        var indexes: [Int?] = []
        collection.on("remove") { indexes.append($0.index) }

        for id in stride(from: 1, to: n, by: 2) { collection.remove(.int(id)) }
        // Odd id 2k + 1 follows k + 1 even ids and no odd one at its turn.
        #expect(indexes == (0..<(n / 2)).map { $0 + 1 })
        #expect(collection.count == n / 2)
        #expect(collection.at(1)?.id == 2)
        #expect(collection.get(.int(n - 1)) == nil)

        indexes = []
        for _ in 0..<(n / 8) {
            collection.shift()
            collection.pop()
        }
        #expect(indexes.count == n / 4)
        #expect(indexes.enumerated().allSatisfy { $0.offset % 2 == 0 ? $0.element == 0 : $0.element != nil })
        #expect(collection.map(\.id) == stride(from: n / 4, to: n - n / 4, by: 2).map { .int($0) })
    }

    // Keel: emptying a large collection with `set([])` and removing everything with `remove`.
    @Test func emptyingALargeCollection() {
        let n = Self.size
        let viaSet = Collection<Model>(Self.attributes(0..<n))
        var removals = 0
        viaSet.on("remove") { event in
            #expect(event.index == 0)
            removals += 1
        }
        viaSet.set([Attributes]())
        #expect(viaSet.isEmpty)
        #expect(removals == n)

        let viaRemove = Collection<Model>(Self.attributes(0..<n))
        let removed = viaRemove.remove(Array(viaRemove.models.reversed()))
        #expect(removed.count == n)
        #expect(viaRemove.isEmpty)
    }

    // Keel: inserting a large block at the front of a large collection.
    @Test func addingALargeBlockAtAnIndex() {
        let n = Self.size
        let collection = Collection<Model>(Self.attributes(n..<(2 * n)))
        var indexMismatches = 0
        collection.on("add") { event in
            if event.model?.id?.intValue != event.index { indexMismatches += 1 }
        }
        let added = collection.add(Self.attributes(0..<n), at: 0)
        #expect(added.count == n)
        #expect(indexMismatches == 0)
        #expect(collection.count == 2 * n)
        #expect(collection.map(\.id) == (0..<(2 * n)).map { .int($0) })
    }

    // Keel: adding a large input full of duplicates and present models.
    @Test func addingALargeInputWithDuplicates() {
        let n = Self.size
        let collection = Collection<Model>(Self.attributes(0..<(n / 2)))
        let input = Self.attributes((0..<n).flatMap { [$0, $0] })
        let result = collection.add(input)
        #expect(result.count == 2 * n)
        #expect(collection.count == n)
        #expect(zip(result, input).allSatisfy { $0.id == $1["id"] })
        #expect(collection.map(\.id) == (0..<n).map { .int($0) })
    }

    // Keel: resetting with a large input and sorting it with every comparator form.
    @Test func resettingAndSortingALargeCollection() throws {
        let n = Self.size
        var generator = CollectionTestRandom(seed: 42)
        let ids = Array(0..<n).shuffled(using: &generator)
        let collection = Collection<Model>()
        collection.reset(ids.map { ["id": .int($0), "rank": .int($0 % 7)] })
        #expect(collection.count == n)

        let expected = ids.enumerated()
            .sorted { ($0.element % 7, $0.offset) < ($1.element % 7, $1.offset) }
            .map { JSONValue.int($0.element) }
        let comparators: [ModelComparator<Model>] = [
            .attribute("rank"),
            .value { $0["rank"] },
            .key { $0["rank"]?.intValue ?? 0 },
            .ordered { ($0["rank"]?.intValue ?? 0) < ($1["rank"]?.intValue ?? 0) },
        ]
        for comparator in comparators {
            collection.comparator = comparator
            try collection.sort()
            #expect(collection.map(\.id) == expected)
            collection.comparator = nil
            collection.reset(ids.map { ["id": .int($0), "rank": .int($0 % 7)] })
        }
    }

    // Keel: re-indexing many id changes keeps every lookup right.
    @Test func reindexingManyIDChanges() {
        let n = Self.size
        let collection = Collection<Model>(Self.attributes(0..<n))
        for model in collection { model.set(["id": .string("m\(model.id?.intValue ?? -1)")]) }
        var misses = 0
        for index in 0..<n {
            if collection.get(.int(index)) != nil { misses += 1 }
            if collection.get(.string("m\(index)"))?.id != .string("m\(index)") { misses += 1 }
        }
        #expect(misses == 0)
    }
}
