import Testing

@testable import Keel

/// An identity map drops the entries of deallocated models as its table grows: after a load
/// that only added (every model alive) it lets the table grow further before looking again,
/// and still keeps its dead entries a bounded share of the table.
struct IdentityMapSweepTests {
    final class Note: Model {}

    @Test func deadEntriesStayBoundedAfterALoadThatOnlyAdded() {
        let map = IdentityMap()
        let build = map.factory(for: Note.self, collection: "/notes")
        let kept = (0..<1_000).map { build(["id": .int($0)], ChangeOptions()) }
        var largest = 0
        for id in 1_000..<11_000 {
            _ = build(["id": .int(id)], ChangeOptions())
            largest = max(largest, map.tableCount)
        }

        // Never more than four entries per live model, plus the one just added.
        #expect(largest <= 4 * 1_000 + 1)
        #expect(map.count == 1_000)
        for note in kept {
            #expect(map.existing(Note.self, id: note.id ?? .null, in: "/notes") === note)
        }
    }
}
