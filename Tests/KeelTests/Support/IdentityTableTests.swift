import Testing

@testable import Keel

private final class Token {}

/// The identity table behind `set`'s and `remove`'s bookkeeping and a collection's slots
/// holds each object once, grows past its first capacity, tells apart objects that are not
/// in it, and keeps every entry reachable through removals.
struct IdentityTableTests {
    @Test func insertsEachObjectOnceWithItsFirstValue() {
        let objects = (0..<1_000).map { _ in Model() }
        var table = IdentityTable(capacity: 4)
        let firstInserts = objects.indices.map { table.insert(objects[$0], value: $0) }
        let secondInserts = objects.prefix(10).map { table.insert($0, value: -1) }
        #expect(firstInserts.allSatisfy { $0 })
        #expect(!secondInserts.contains(true))
        #expect(table.count == 1_000)
        #expect(objects.indices.allSatisfy { table.value(for: objects[$0]) == $0 })
        let others = (0..<1_000).map { _ in Model() }
        #expect(!others.contains { table.contains($0) })
    }

    @Test func anEmptyTableContainsNothing() {
        var table = IdentityTable()
        let token = Token()
        #expect(!table.contains(token))
        #expect(table.value(for: token) == nil)
        #expect(table.removeValue(for: ObjectIdentifier(token)) == nil)
        #expect(table.isEmpty)
    }

    @Test func findsObjectsByIdentityNotByEquality() {
        var table = IdentityTable()
        let first = Token()
        let second = Token()
        table.updateValue(1, for: ObjectIdentifier(first))
        #expect(table[ObjectIdentifier(first)] == 1)
        #expect(table[ObjectIdentifier(second)] == nil)
        table.updateValue(2, for: ObjectIdentifier(second))
        #expect(table[ObjectIdentifier(second)] == 2)
        #expect(table.count == 2)
    }

    @Test func updatingAnObjectReplacesItsValue() {
        var table = IdentityTable()
        let token = Token()
        table.updateValue(1, for: ObjectIdentifier(token))
        table.updateValue(9, for: ObjectIdentifier(token))
        #expect(table[ObjectIdentifier(token)] == 9)
        #expect(table.count == 1)
    }

    @Test func removalReturnsTheValueOnce() {
        var table = IdentityTable()
        let token = Token()
        table.updateValue(5, for: ObjectIdentifier(token))
        #expect(table.removeValue(for: ObjectIdentifier(token)) == 5)
        #expect(table.removeValue(for: ObjectIdentifier(token)) == nil)
        #expect(table[ObjectIdentifier(token)] == nil)
        #expect(table.count == 0)
    }

    @Test(arguments: [0, 1, 7, 1_000])
    func growsPastItsInitialCapacityKeepingEveryEntry(capacity: Int) {
        var table = IdentityTable(capacity: capacity)
        let tokens = (0..<5_000).map { _ in Token() }
        for (index, token) in tokens.enumerated() { table.updateValue(index, for: ObjectIdentifier(token)) }
        #expect(table.count == tokens.count)
        #expect(tokens.indices.allSatisfy { table[ObjectIdentifier(tokens[$0])] == $0 })
    }

    /// Random insertions, updates and removals, checked after every step against a
    /// `Dictionary` keyed by `ObjectIdentifier`: removals from the middle of probe runs
    /// (including runs that wrap around the end of the buckets) must keep every other
    /// entry reachable.
    @Test func matchesADictionaryThroughRandomOperations() {
        var table = IdentityTable()
        var reference: [ObjectIdentifier: Int] = [:]
        let tokens = (0..<300).map { _ in Token() }
        var state = 42
        for step in 0..<20_000 {
            state = state * 48_271 % 2_147_483_647
            let token = tokens[state % tokens.count]
            if state % 3 == 0 {
                #expect(
                    table.removeValue(for: ObjectIdentifier(token))
                        == reference.removeValue(forKey: ObjectIdentifier(token))
                )
            } else {
                table.updateValue(step, for: ObjectIdentifier(token))
                reference[ObjectIdentifier(token)] = step
            }
            if step % 997 == 0 {
                #expect(tokens.allSatisfy { table[ObjectIdentifier($0)] == reference[ObjectIdentifier($0)] })
            }
        }
        #expect(table.count == reference.count)
        #expect(tokens.allSatisfy { table[ObjectIdentifier($0)] == reference[ObjectIdentifier($0)] })
    }

    @Test func removingEveryObjectEmptiesTheTable() {
        var table = IdentityTable()
        let tokens = (0..<1_000).map { _ in Token() }
        for (index, token) in tokens.enumerated() { table.updateValue(index, for: ObjectIdentifier(token)) }
        for (index, token) in tokens.enumerated().reversed() {
            #expect(table.removeValue(for: ObjectIdentifier(token)) == index)
        }
        #expect(table.count == 0)
        #expect(tokens.allSatisfy { table[ObjectIdentifier($0)] == nil })
    }
}
