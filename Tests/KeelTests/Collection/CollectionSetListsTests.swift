import Keel
import Testing

/// A model subclass, so that `set` works on a collection of a type other than `Model`.
private final class Ticket: Model {}

/// `set` keeps its result, added, merged and order lists as `[Model]` while it works and
/// hands them out as the collection's model type: each list holds the right models, and a
/// reorder is told apart from an unchanged order.
struct CollectionSetListsTests {
    @Test func setReturnsTheModelsOfTheInputInInputOrderAsTheCollectionsType() {
        let tickets = Collection<Ticket>([["id": 1], ["id": 2]])
        let first = tickets.get(1)
        let result: [Ticket] = tickets.set([["id": 3], ["id": 1, "seen": true]])
        #expect(result.map(\.id) == [3, 1])
        #expect(result[1] === first)
        #expect(tickets.models.map(\.id) == [3, 1])
    }

    @Test func theUpdateEventListsAddedMergedAndRemovedModels() throws {
        let tickets = Collection<Ticket>([["id": 1], ["id": 2]])
        let log = CollectionEventLog(tickets, "update")
        tickets.set([["id": 2, "title": "merged"], ["id": 4]])
        let changes = try #require(log.events.first?.changes)
        #expect(changes.added.map(\.id) == [4])
        #expect(changes.merged.map(\.id) == [2])
        #expect(changes.removed.map(\.id) == [1])
        #expect(tickets.models.map(\.id) == [2, 4])
    }

    @Test func takingTheInputsOrderFiresSortOnlyWhenTheOrderChanges() {
        let tickets = Collection<Ticket>([["id": 1], ["id": 2], ["id": 3]])
        let log = CollectionEventLog(tickets, "sort")
        tickets.set([["id": 1], ["id": 2], ["id": 3]])
        #expect(log.names.isEmpty)
        tickets.set([["id": 3], ["id": 1], ["id": 2]])
        #expect(log.names == ["sort"])
        #expect(tickets.models.map(\.id) == [3, 1, 2])
    }

    @Test func addedModelsAreInsertedAtTheGivenPosition() {
        let tickets = Collection<Ticket>([["id": 1], ["id": 2]])
        let added = tickets.add([["id": 5], ["id": 6]], at: 1)
        #expect(added.map(\.id) == [5, 6])
        #expect(tickets.models.map(\.id) == [1, 5, 6, 2])
    }
}
