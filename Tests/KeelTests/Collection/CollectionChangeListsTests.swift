import Testing

@testable import Keel

/// A model subclass for the lists of a typed collection's events.
private final class Card: Model {}

/// The model lists that a typed collection's `update`, `reset` and `allModels` hand out as
/// `[Model]` hold the collection's own instances, of its model class.
struct CollectionChangeListsTests {
    @Test func updateListsHoldTheCollectionsModels() throws {
        let cards = Collection<Card>([["id": 1], ["id": 2]])
        var changes: [CollectionChanges] = []
        cards.on("update") { event in if let change = event.changes { changes.append(change) } }
        cards.set([["id": 2, "title": "b"], ["id": 3]])
        let change = try #require(changes.first)
        #expect(change.added.map { $0 is Card } == [true])
        #expect(change.added.first === cards.get(3))
        #expect(change.removed.map(\.id) == [1])
        #expect(change.merged.first === cards.get(2))
        var added = change.added
        added.append(Model(["id": 9]))
        #expect(added.count == 2 && change.added.count == 1)
    }

    @Test func removeAndResetListsHoldTheCollectionsModels() throws {
        let cards = Collection<Card>([["id": 1], ["id": 2]])
        let first = try #require(cards.get(1))
        var removed: [Model] = []
        var previous: [Model] = []
        cards.on("update") { event in removed += event.changes?.removed ?? [] }
        cards.on("reset") { event in previous = event.previousModels ?? [] }
        cards.remove(first)
        #expect(removed.count == 1 && removed[0] === first)
        cards.reset([["id": 5]])
        #expect(previous.count == 1 && previous[0] is Card && previous[0].id == 2)
        #expect(cards.allModels.count == 1 && cards.allModels[0] is Card)
    }
}
