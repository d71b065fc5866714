import Testing

@testable import Keel

/// What a collection's `set` leaves in the models it merges into: Backbone's `changed` and
/// previous attributes during the merge's `change:<attribute>` and `change` events and after
/// them, the cached id and the index by id, whichever way the merge's changes are recorded.
struct CollectionSetMergeBookkeepingTests {
    /// What a handler saw of its model's change bookkeeping.
    private struct Seen: Equatable {
        let changed: Attributes?
        let previous: Attributes
        let titleChanged: Bool
        let rankChanged: Bool
    }

    private static func seen(_ model: Model) -> Seen {
        Seen(
            changed: model.changedAttributes(),
            previous: model.previousAttributes(),
            titleChanged: model.hasChanged("title"),
            rankChanged: model.hasChanged("rank")
        )
    }

    @Test func aMergeThatChangesSomeAttributesReportsOnlyThoseDuringAndAfterItsEvents() {
        let model = Model(["id": 1, "title": "a", "rank": 1])
        let notes = Collection([model])
        var seen: [String: Seen] = [:]
        model.on("change:title") { _ in seen["change:title"] = Self.seen(model) }
        model.on("change") { _ in seen["change"] = Self.seen(model) }

        notes.set([["id": 1, "title": "b", "rank": 1]])

        let expected = Seen(
            changed: ["title": "b"],
            previous: ["id": 1, "title": "a", "rank": 1],
            titleChanged: true,
            rankChanged: false
        )
        #expect(seen == ["change:title": expected, "change": expected])
        #expect(Self.seen(model) == expected)
        #expect(model.changed == ["title": "b"])
        #expect(model.previous("title") == "a")
    }

    @Test func aSetInsideAMergesChangeHandlerAddsToTheMergesChanges() {
        let model = Model(["id": 1, "title": "a", "rank": 1, "done": false])
        let notes = Collection([model])
        var changedAtChange: Attributes?
        model.on("change:title") { _ in model.set("rank", 5) }
        model.on("change") { _ in changedAtChange = model.changedAttributes() }

        notes.set([["id": 1, "title": "b", "rank": 1, "done": true]])

        #expect(changedAtChange == ["title": "b", "done": true, "rank": 5])
        #expect(model.changed == ["title": "b", "done": true, "rank": 5])
        #expect(model.previousAttributes() == ["id": 1, "title": "a", "rank": 1, "done": false])
    }

    @Test func theNextSetReplacesAMergesChanges() {
        let model = Model(["id": 1, "title": "a", "rank": 1])
        let notes = Collection([model])
        notes.set([["id": 1, "title": "b", "rank": 1]])

        model.set("rank", 2)
        #expect(model.changed == ["rank": 2])

        notes.set([["id": 1, "title": "c", "rank": 2]])
        model.set(["title": "c", "rank": 3])
        #expect(model.changed == ["rank": 3])
        #expect(model.previousAttributes() == ["id": 1, "title": "c", "rank": 2])

        notes.set([["id": 1, "title": "d", "rank": 3]])
        notes.set([["id": 1, "title": "d", "rank": 3]])
        #expect(model.changed.isEmpty)
        #expect(!model.hasChanged())
        #expect(model.previousAttributes() == ["id": 1, "title": "d", "rank": 3])
    }

    @Test func aMergesChangesAreTheInputAsGivenWhateverTheCallerDoesWithItAfter() {
        let model = Model(["id": 1, "title": "a", "rank": 1])
        let notes = Collection([model])
        var input: [Attributes] = [["id": 1, "title": "b", "rank": 1]]

        notes.set(input)
        input[0]["title"] = "changed by the caller"
        input[0]["rank"] = 9

        #expect(model.changed == ["title": "b"])
        #expect(model["title"] == "b")
    }

    @Test func onlyASetThatChangesTheIDMovesTheModelInTheIndex() {
        let model = Model(["id": 1, "title": "a", "rank": 1])
        let notes = Collection([model])

        model.set(["id": 1.0, "title": "b", "rank": 1])
        #expect(model.id == 1)
        #expect(model.storedID == .int(1))
        #expect(notes.get(1) === model)

        var changeIDs = 0
        model.on("changeId") { _ in changeIDs += 1 }
        model.set(["id": 7, "title": "b", "rank": 1])
        #expect(model.id == 7)
        #expect(changeIDs == 1)
        #expect(notes.get(7) === model)
        #expect(notes.get(1) == nil)
        #expect(model.changed == ["id": 7])
    }

    @Test func aMergeThatChangesNothingMakesThePreviousAttributesTheCurrentOnes() {
        let model = Model(["id": 1, "title": "a", "rank": 1])
        let notes = Collection([model])
        #expect(model.previousAttributes().isEmpty)

        notes.set([["id": 1, "title": "a", "rank": 1]])
        #expect(model.previousAttributes() == ["id": 1, "title": "a", "rank": 1])
        #expect(model.previous("title") == "a")
        #expect(model.changed.isEmpty)
        #expect(model.changedAttributes() == nil)
        #expect(model.changedAttributes(["title": "b"]) == ["title": "b"])
        #expect(!model.hasChanged())

        notes.set([["id": 1, "title": "a", "rank": 1]])
        #expect(model.previousAttributes() == ["id": 1, "title": "a", "rank": 1])

        model.set("title", "b")
        #expect(model.previousAttributes() == ["id": 1, "title": "a", "rank": 1])
        #expect(model.changed == ["title": "b"])
        model.set(["title": "c", "rank": 2])
        #expect(model.previousAttributes() == ["id": 1, "title": "b", "rank": 1])
        #expect(model.changed == ["title": "c", "rank": 2])
    }

    @Test func modelsWhoseMergesChangedNothingShareOneRecordThatNoSetChanges() {
        let first = Model(["id": 1, "title": "a"])
        let second = Model(["id": 2, "title": "b"])
        let notes = Collection([first, second])
        notes.set([["id": 1, "title": "a"], ["id": 2, "title": "b"]])
        #expect(first.storedChangeRecord === ChangeRecord.followingStorage)
        #expect(second.storedChangeRecord === ChangeRecord.followingStorage)

        var changedDuringChange: Attributes?
        first.on("change") { _ in changedDuringChange = first.changedAttributes() }
        first.set(["title": "x", "id": 1])
        first.unset("title")
        second.set("title", "y")

        #expect(changedDuringChange == ["title": nil])
        #expect(first.storedChangeRecord !== ChangeRecord.followingStorage)
        #expect(second.storedChangeRecord !== ChangeRecord.followingStorage)
        #expect(second.previousAttributes() == ["id": 2, "title": "b"])
        let shared = ChangeRecord.followingStorage
        #expect(shared.previous.isEmpty && shared.changed.isEmpty && !shared.isChanging && shared.pendingOptions == nil)
        #expect(first.previousAttributes() == ["id": 1, "title": "x"])
        #expect(first.changed == ["title": nil])
    }

    @Test func aRejectedSetAfterAMergeThatChangedNothingLeavesThePreviousAttributesTheCurrentOnes() {
        final class Positive: Model {
            override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
                (attributes["rank"]?.intValue ?? 0) < 0 ? ["rank": ["must not be negative"]] : nil
            }
        }
        let model = Positive(["id": 1, "rank": 1])
        let notes = Collection<Positive>([model])
        notes.set([["id": 1, "rank": 1]])

        #expect(!model.set(["id": 1, "rank": -1], validate: true))
        #expect(model.previousAttributes() == ["id": 1, "rank": 1])
        #expect(model.changed.isEmpty)
    }
}
