import Observation
import Testing

@testable import Keel

/// A `set` of attributes the model already has writes the new values by slot; the change
/// bookkeeping, the events, validation and Observation behave as for any other `set`.
struct ModelSetBySlotTests {
    @Test func aSetOfExistingKeysKeepsTheLayoutAndRecordsOnlyTheChangedValues() {
        let model = Model(["a": 1, "b": 2, "c": 3])
        let layout = model.layout
        model.set(["c": 30, "a": 1, "b": 20])
        #expect(model.layout === layout)
        #expect(model.attributes == ["a": 1, "b": 20, "c": 30])
        #expect(model.changed == ["c": 30, "b": 20])
        #expect(Array(model.changed.keys) == ["c", "b"])
        #expect(model.previousAttributes() == ["a": 1, "b": 2, "c": 3])
        #expect(model.previous("b") == 2)
        #expect(model.hasChanged("b") && !model.hasChanged("a"))
    }

    @Test func theReplacedStorageIsNotChangedByTheSet() {
        let model = Model(["a": 1, "b": 2])
        let before = model.attributes
        model.set("a", 5)
        #expect(before == ["a": 1, "b": 2])
        #expect(model.previousAttributes() == before)
    }

    @Test func previousAndChangedDuringANestedSetCompareWithTheOutermostSet() {
        let model = Model(["a": 1, "b": 2])
        var previousB: JSONValue?
        var changedInHandler: Attributes = [:]
        model.on("change:a") { _ in
            model.set("b", 3)
            previousB = model.previous("b")
            changedInHandler = model.changed
        }
        model.set("a", 2)
        #expect(previousB == 2)
        #expect(changedInHandler == ["a": 2, "b": 3])
        #expect(model.changed == ["a": 2, "b": 3])
        #expect(model.previousAttributes() == ["a": 1, "b": 2])
    }

    @Test func aNestedSetBackToThePreviousValueLeavesItOutOfChanged() {
        let model = Model(["a": 1, "b": 2])
        model.on("change:a") { _ in
            model.set("b", 9)
            model.set("b", 2)
        }
        var changedInChange: Attributes = [:]
        model.on("change") { _ in changedInChange = model.changed }
        model.set("a", 2)
        #expect(changedInChange == ["a": 2])
    }

    @Test func aChangeHandlerSeesTheValueAsItIsWhenItRuns() {
        let model = Model(["a": 1, "b": 1])
        var values: [JSONValue?] = []
        model.on("change:a") { _ in model.set("b", 7) }
        model.on("change:b") { event in values.append(event.value) }
        model.set(["a": 2, "b": 5])
        #expect(values == [7, 7])
        #expect(model["b"] == 7)
    }

    @Test func aRejectedSetChangesNothingAndKeepsThePreviousAttributes() {
        let model = NonNegativeX(["x": 1])
        model.set("x", 2)
        #expect(!model.set("x", -1))
        #expect(model["x"] == 2)
        #expect(model.previousAttributes() == ["x": 1])
        #expect(model.changed == ["x": 2])
        #expect(model.validationError != nil)
    }

    @Test func aSetThatChangesNothingStartsAnEmptyChange() {
        let model = Model(["a": 1])
        model.set("a", 2)
        var fired = false
        model.on("all") { _ in fired = true }
        #expect(model.set("a", 2))
        #expect(!fired)
        #expect(model.changed.isEmpty)
        #expect(model.previousAttributes() == ["a": 2])
    }

    @Test func changingTheIdAttributeBySlotUpdatesTheIdAndFiresChangeId() {
        let model = Model(["id": 1, "a": 1])
        var previousIDs: [JSONValue?] = []
        model.on("changeId") { event in previousIDs.append(event.previousID) }
        model.set("id", 2)
        #expect(model.id == 2)
        #expect(previousIDs == [1])
    }

    @Test func observersOfAChangedAttributeAreNotifiedAndOthersAreNot() {
        let model = Model(["a": 1, "b": 2])
        let aChanges = AttributeChangeCounter(model, "a")
        let bChanges = AttributeChangeCounter(model, "b")
        model.set(["a": 5, "b": 2])
        #expect(aChanges.count == 1)
        #expect(bChanges.count == 0)
    }
}
