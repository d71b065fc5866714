import Testing

@testable import Keel

/// A collection's add of many through an identity map's factory makes room in the map's
/// table once, before its first new model, instead of the table growing step by step.
@MainActor
struct IdentityMapBatchReservationTests {
    final class Item: Model {}

    /// A collection of items built through `map`, noting the map's capacity after each build.
    private func items(through map: IdentityMap, noting capacities: @escaping (Int) -> Void) -> Collection<Item> {
        let build = map.factory(for: Item.self, collection: "/items")
        return Collection<Item>(factory: { attributes, options in
            let item = build(attributes, options)
            capacities(map.entries.capacity)
            return item
        })
    }

    @Test func anAddOfManyMakesRoomForAllOfItsRecordsAtItsFirstModel() {
        let map = IdentityMap()
        var capacities: [Int] = []
        let items = items(through: map) { capacities.append($0) }
        items.add((0..<1_000).map { ["id": .int($0)] })
        #expect(capacities.count == 1_000)
        #expect((capacities.first ?? 0) >= 1_000)
        // A later batch makes room for its own records beside those already there.
        capacities = []
        items.add((1_000..<3_000).map { ["id": .int($0)] })
        #expect((capacities.first ?? 0) >= 3_000)
        #expect(map.count == 3_000)
    }

    @Test func aSingleModelMakesRoomForItselfOnly() {
        let map = IdentityMap()
        var capacities: [Int] = []
        let items = items(through: map) { capacities.append($0) }
        items.add(["id": 1])
        _ = map.model(Item.self, collection: "/items", attributes: ["id": 2])
        #expect(capacities.count == 1)
        #expect(map.entries.capacity < 100)
    }
}
