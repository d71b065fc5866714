import Testing

@testable import Keel

/// The identity table behind `set`'s and `remove`'s bookkeeping holds each object once
/// with its first value, grows past its first capacity, and tells apart objects that are
/// not in it.
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
        let table = IdentityTable()
        #expect(!table.contains(Model()))
        #expect(table.value(for: Model()) == nil)
        #expect(table.isEmpty)
    }
}
