import Testing

@testable import Keel

/// An identity map's open-addressed table of entries (`RecordTable`) against a `Dictionary`
/// doing the same: lookups, replacements, removals that shift the entries after them back,
/// growth, reservation, iteration and removal by a condition.
@MainActor
struct RecordTableTests {
    final class Item: Model {}

    /// The key of id `id` in the collection numbered `collection`.
    private func key(_ id: Int, in collection: Int = 0) -> RecordKey {
        RecordKey(collection: collection, id: .int(id))
    }

    /// Whether `table` holds exactly the stamps of `expected`, by lookup and by iteration.
    private func matches(_ table: RecordTable, _ expected: [RecordKey: Int]) -> Bool {
        guard table.count == expected.count else { return false }
        for (key, stamp) in expected where table[key]?.stamp != stamp { return false }
        var iterated: [RecordKey: Int] = [:]
        for (key, entry) in table { iterated[key] = entry.stamp }
        return iterated == expected
    }

    @Test func anEmptyTableFindsNothingAndHoldsNoBuckets() {
        let table = RecordTable()
        #expect(table.count == 0)
        #expect(table.capacity == 0)
        #expect(table[key(0)] == nil)
        #expect(table.slot(of: key(0)) == nil)
        #expect(Array(table).isEmpty)
        table.removeEntry(for: key(0))
        table.removeAll { _ in true }
        #expect(table.count == 0)
    }

    @Test func insertsReplacesAndRemovesAsADictionaryDoes() {
        let model = Item()
        let table = RecordTable()
        var expected: [RecordKey: Int] = [:]
        var generator = SystemRandomNumberGenerator()
        // Ids at the edges, negative ones, text ids, two collections, and many removals, so
        // that removals shift runs of colliding entries back.
        let ids: [RecordID] =
            [.int(0), .int(-1), .int(.max), .int(.min), .text(""), .text("a-b"), .text("007")]
            + (1...600).map { RecordID.int($0) }
        for step in 0..<5_000 {
            let id = ids[Int.random(in: 0..<ids.count, using: &generator)]
            let key = RecordKey(collection: Int.random(in: 0...1, using: &generator), id: id)
            if Bool.random(using: &generator) {
                table.insert(IdentityMap.Entry(model, stamp: step), for: key)
                expected[key] = step
            } else {
                table.removeEntry(for: key)
                expected[key] = nil
            }
            #expect(table[key]?.stamp == expected[key])
        }
        #expect(matches(table, expected))
    }

    @Test func aSlotReadsAndWritesItsEntryInPlace() throws {
        let model = Item()
        let table = RecordTable()
        for id in 0..<20 { table.insert(IdentityMap.Entry(model), for: key(id)) }
        let slot = try #require(table.slot(of: key(7)))
        #expect(table[entryAt: slot].holds(model))
        table[entryAt: slot].stamp = 42
        #expect(table[key(7)]?.stamp == 42)
        #expect(table[key(8)]?.stamp == 0)
        #expect(table.count == 20)
    }

    @Test func aReservationHoldsItsCountWithoutGrowingAndKeepsTheEntries() {
        let model = Item()
        let table = RecordTable()
        table.insert(IdentityMap.Entry(model, stamp: 1), for: key(1))
        table.reserveCapacity(1_000)
        let reserved = table.capacity
        #expect(reserved >= 1_000)
        #expect(table[key(1)]?.stamp == 1)
        for id in 2...1_000 { table.insert(IdentityMap.Entry(model, stamp: id), for: key(id)) }
        #expect(table.capacity == reserved)
        #expect(table.count == 1_000)
        // A smaller reservation keeps the buckets; growing past the capacity doubles them.
        table.reserveCapacity(10)
        #expect(table.capacity == reserved)
        for id in 1_001...(reserved + 1) { table.insert(IdentityMap.Entry(model, stamp: id), for: key(id)) }
        #expect(table.capacity > reserved)
        #expect(matches(table, Dictionary(uniqueKeysWithValues: (1...(reserved + 1)).map { (key($0), $0) })))
    }

    @Test func removalByAConditionKeepsTheOthersFindable() {
        let kept = Item()
        let removed = Item()
        let table = RecordTable()
        var expected: [RecordKey: Int] = [:]
        for id in 0..<300 {
            let model = id % 3 == 0 ? removed : kept
            table.insert(IdentityMap.Entry(model, stamp: id), for: key(id, in: id % 2))
            if model === kept { expected[key(id, in: id % 2)] = id }
        }
        table.removeAll { $0.holds(removed) }
        #expect(matches(table, expected))
        table.removeAll { _ in false }
        #expect(matches(table, expected))
        table.removeAll()
        #expect(table.count == 0)
        #expect(table.capacity == 0)
        #expect(table[key(1)] == nil)
    }

    @Test func aBucketTakesHalfACacheLineWhateverItsId() {
        // Two words of key and two of entry: a text id is boxed, so a bucket never straddles
        // two 64-byte lines.
        #expect(RecordTable.bucketStride == 32)
        let model = Item()
        let table = RecordTable()
        let keys = (0..<200).map { RecordKey(collection: $0 % 3, id: $0 % 2 == 0 ? .int($0) : .text("t\($0)")) }
        for (stamp, key) in keys.enumerated() { table.insert(IdentityMap.Entry(model, stamp: stamp), for: key) }
        for key in keys.prefix(100) { table.removeEntry(for: key) }
        let expected = Dictionary(uniqueKeysWithValues: keys.enumerated().dropFirst(100).map { ($1, $0) })
        #expect(matches(table, expected))
    }

    @Test func aTableFillsSevenEighthsOfItsBucketsBeforeItGrows() {
        // A collection's batch of 100,000 posts and their 1,000 authors fits 131,072 buckets.
        let table = RecordTable()
        table.reserveCapacity(101_000)
        #expect(table.capacity == 114_688)
        let model = Item()
        for id in 0..<114_688 { table.insert(IdentityMap.Entry(model), for: key(id)) }
        #expect(table.capacity == 114_688)
        #expect((0..<114_688).allSatisfy { table[key($0)] != nil })
    }

    /// Ids a server chose so that, under one seed, they all start probing at the first of
    /// 1,024 buckets: a table with that seed keeps them in one run, in the order they came;
    /// a table with a seed of its own spreads them.
    @Test func eachTableHashesWithItsOwnSeedSoChosenIdsDoNotCollide() {
        let model = Item()
        let colliding = (0..<400_000).lazy.map { self.key($0) }
            .filter { $0._rawHashValue(seed: 0) & 1023 == 0 }
            .prefix(150)
        let keys = Array(colliding)
        #expect(keys.count == 150)
        func iterationOrder(of table: RecordTable) -> [RecordKey] {
            table.reserveCapacity(700)
            for key in keys { table.insert(IdentityMap.Entry(model), for: key) }
            #expect(keys.allSatisfy { table[$0] != nil })
            return table.map(\.key)
        }
        #expect(iterationOrder(of: RecordTable(seed: 0)) == keys)
        #expect(iterationOrder(of: RecordTable()) != keys)
    }
}
