import Keel
import Testing

/// A smart `set` tells the models it found or added from those it left out by a mark on each
/// model: a `set` on another collection that shares models, run from one of its handlers,
/// does not confuse the two, and no mark outlives its `set`.
struct CollectionSetSeenTests {
    @Test func aNestedSetOnACollectionSharingAModelRemovesItThere() {
        let tickets = Collection<Model>([["id": 1], ["id": 2], ["id": 3]])
        let shared = tickets[0]
        let board = Collection<Model>([["id": 4]])
        board.add(shared)
        tickets[1].on("change") { _ in board.set([["id": 4]]) }

        tickets.set([["id": 1, "title": "a"], ["id": 2, "title": "b"]])

        #expect(tickets.models.map(\.id) == [1, 2])
        #expect(board.models.map(\.id) == [4])
    }

    @Test func aNestedSetKeepsTheModelsItNamesWithoutMarkingThemForTheOuterSet() {
        let tickets = Collection<Model>([["id": 1], ["id": 2], ["id": 3]])
        let left = tickets[2]
        let board = Collection<Model>([["id": 4]])
        board.add(left)
        tickets[0].on("change") { _ in board.set([left, board[0]]) }

        tickets.set([["id": 1, "title": "a"], ["id": 2]])

        #expect(tickets.models.map(\.id) == [1, 2])
        #expect(board.models.map(\.id) == [3, 4])
    }

    @Test func aModelGivenToASetIsRemovedByALaterSetThatLeavesItOut() {
        let tickets = Collection<Model>([["id": 1]])
        let given = Model(["id": 9])

        tickets.set([given, tickets[0]])
        #expect(tickets.models.map(\.id) == [9, 1])
        tickets.set([["id": 1]])

        #expect(tickets.models.map(\.id) == [1])
        #expect(tickets.get(9) == nil)
    }

    @Test func aModelKeptByOneSetIsRemovedByTheNext() {
        let tickets = Collection<Model>([["id": 1], ["id": 2]])

        tickets.set([["id": 2], ["id": 1]])
        tickets.set([["id": 1]])

        #expect(tickets.models.map(\.id) == [1])
    }

    @Test func aModelAHandlerTriesToTakeOutDuringASetKeepsNoMark() {
        let tickets = Collection<Model>([["id": 1], ["id": 2]])
        let taken = tickets[0]
        taken.once("change") { _ in tickets.remove(taken) }

        tickets.set([["id": 1, "title": "a"], ["id": 2]])
        tickets.reset([["id": 2]])
        tickets.add(taken)
        tickets.set([["id": 2]])

        #expect(tickets.models.map(\.id) == [2], "a mark left on the model kept it")
    }

    @Test func aModelANestedSetTriesToTakeOutKeepsNoMark() {
        let tickets = Collection<Model>([["id": 1], ["id": 2], ["id": 3]])
        let taken = tickets[0]
        tickets[1].once("change") { _ in tickets.set([["id": 2], ["id": 3]]) }

        tickets.set([["id": 1], ["id": 2, "title": "b"], ["id": 3]])
        tickets.reset([["id": 2], ["id": 3]])
        tickets.add(taken)
        tickets.set([["id": 2], ["id": 3]])

        #expect(tickets.models.map(\.id) == [2, 3], "a mark left on the model kept it")
    }
}
