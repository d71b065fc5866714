import Keel
import Testing

/// A `set` whose inputs name a model more than once keeps it once in the collection's order
/// and once per input in its result, and removes exactly the models no input names; the
/// models it removes no longer name the collection, whether or not anyone heard `remove`.
struct CollectionSetRepeatsTests {
    @Test func inputsThatNameAPresentModelAgainKeepItOnceInTheOrder() throws {
        let tickets = Collection<Model>([["id": 1], ["id": 2], ["id": 3]])
        let log = CollectionEventLog(tickets, "update")

        let result = tickets.set([["id": 2], ["id": 4], ["id": 2, "title": "x"], ["id": 5], ["id": 4]])

        #expect(result.map(\.id) == [2, 4, 2, 5, 4])
        #expect(tickets.models.map(\.id) == [2, 4, 5])
        let changes = try #require(log.events.first?.changes)
        #expect(changes.added.map(\.id) == [4, 5])
        #expect(changes.removed.map(\.id) == [1, 3])
        #expect(tickets.get(2)?["title"] == "x")
    }

    @Test func inputsThatNameANewModelAgainAddItOnce() {
        let tickets = Collection<Model>([["id": 1]])

        let result = tickets.set([["id": 4], ["id": 4, "title": "x"], ["id": 1]])

        #expect(result.map(\.id) == [4, 4, 1])
        #expect(tickets.models.map(\.id) == [4, 1])
        #expect(tickets.get(4)?["title"] == "x")
    }

    @Test func aSetThatNamesEveryModelRemovesNone() {
        let tickets = Collection<Model>([["id": 1], ["id": 2]])
        let log = CollectionEventLog(tickets, "remove")

        tickets.set([["id": 2], ["id": 1], ["id": 2]])

        #expect(log.names.isEmpty)
        #expect(tickets.models.map(\.id) == [2, 1])
    }

    @Test func modelsASetRemovesNoLongerNameTheCollectionWhetherOrNotRemoveWasHeard() {
        let tickets = Collection<Model>([["id": 1], ["id": 2], ["id": 3], ["id": 4]])
        let first = tickets[0]
        let third = tickets[2]
        let fourth = tickets[3]
        var heard: [JSONValue?] = []
        third.on("remove") { event in heard.append(event.model?.id) }

        tickets.set([["id": 2]])

        #expect(heard == [3])
        #expect(first.collection == nil)
        #expect(third.collection == nil)
        #expect(fourth.collection == nil)
        #expect(tickets.models.map(\.id) == [2])
        tickets.add(first)
        #expect(first.collection === tickets)
    }
}
