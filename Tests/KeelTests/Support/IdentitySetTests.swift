import Testing

@testable import Keel

private final class Token {}

/// The identity set behind a smart `set`'s removal of the models it left out holds each
/// object once, grows past its first capacity and tells apart objects that are not in it.
struct IdentitySetTests {
    @Test func insertsEachObjectOnceAndGrowsPastItsCapacity() {
        let objects = (0..<1_000).map { _ in Model() }
        var set = IdentitySet(capacity: 4)
        let firstInserts = objects.map { set.insert($0) }
        let secondInserts = objects.prefix(10).map { set.insert($0) }
        #expect(firstInserts.allSatisfy { $0 })
        #expect(!secondInserts.contains(true))
        #expect(set.count == 1_000)
        #expect(objects.allSatisfy { set.contains($0) })
        let others = (0..<1_000).map { _ in Model() }
        #expect(!others.contains { set.contains($0) })
    }

    @Test func anEmptySetContainsNothing() {
        let set = IdentitySet()
        #expect(!set.contains(Token()))
        #expect(set.count == 0)
    }

    @Test func findsObjectsByIdentityNotByEquality() {
        var set = IdentitySet(capacity: 2)
        let first = Token()
        let second = Token()
        let insertedFirst = set.insert(first)
        #expect(insertedFirst)
        #expect(set.contains(first))
        #expect(!set.contains(second))
        let insertedSecond = set.insert(second)
        let insertedFirstAgain = set.insert(first)
        #expect(insertedSecond && !insertedFirstAgain)
        #expect(set.count == 2)
    }
}
