import Testing

@testable import Keel

private final class Token {}

@Suite("Object slot table")
struct ObjectSlotTableTests {
    @Test func anEmptyTableFindsNothing() {
        var table = ObjectSlotTable()
        let token = Token()
        #expect(table[ObjectIdentifier(token)] == nil)
        #expect(table.removeValue(for: ObjectIdentifier(token)) == nil)
        #expect(table.count == 0)
    }

    @Test func findsObjectsByIdentityNotByEquality() {
        var table = ObjectSlotTable()
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
        var table = ObjectSlotTable()
        let token = Token()
        table.updateValue(1, for: ObjectIdentifier(token))
        table.updateValue(9, for: ObjectIdentifier(token))
        #expect(table[ObjectIdentifier(token)] == 9)
        #expect(table.count == 1)
    }

    @Test func removalReturnsTheValueOnce() {
        var table = ObjectSlotTable()
        let token = Token()
        table.updateValue(5, for: ObjectIdentifier(token))
        #expect(table.removeValue(for: ObjectIdentifier(token)) == 5)
        #expect(table.removeValue(for: ObjectIdentifier(token)) == nil)
        #expect(table[ObjectIdentifier(token)] == nil)
        #expect(table.count == 0)
    }

    @Test(arguments: [0, 1, 7, 1_000])
    func growsPastItsInitialCapacityKeepingEveryEntry(minimumCapacity: Int) {
        var table = ObjectSlotTable(minimumCapacity: minimumCapacity)
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
        var table = ObjectSlotTable()
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
        var table = ObjectSlotTable()
        let tokens = (0..<1_000).map { _ in Token() }
        for (index, token) in tokens.enumerated() { table.updateValue(index, for: ObjectIdentifier(token)) }
        for (index, token) in tokens.enumerated().reversed() {
            #expect(table.removeValue(for: ObjectIdentifier(token)) == index)
        }
        #expect(table.count == 0)
        #expect(tokens.allSatisfy { table[ObjectIdentifier($0)] == nil })
    }
}
