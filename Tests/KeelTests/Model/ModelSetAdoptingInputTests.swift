import Observation
import Testing

@testable import Keel

/// A `set` whose input names every attribute of the model, in the model's order, becomes
/// the model's storage without a copy, and is `changed` as it is when every value changes;
/// everything else behaves as for any other `set`.
struct ModelSetAdoptingInputTests {
    @Test func aSetOfEveryAttributeInOrderBecomesTheStorageAndChanged() {
        let model = Model(["a": 1, "b": 2])
        let input: Attributes = ["a": 10, "b": 20]
        model.set(input)
        #expect(model.storage.isIdentical(to: input))
        #expect(model.changed.isIdentical(to: input))
        #expect(model.attributes == ["a": 10, "b": 20])
        #expect(model.previousAttributes() == ["a": 1, "b": 2])
        #expect(model.changed == ["a": 10, "b": 20])
    }

    @Test func anUnchangedValueWithTheSameBitsStillAdoptsTheInputButChangedHoldsOnlyTheChange() {
        let model = Model(["a": 1, "b": 2])
        let input: Attributes = ["a": 1, "b": 20]
        model.set(input)
        #expect(model.storage.isIdentical(to: input))
        #expect(model.changed == ["b": 20])
        #expect(Array(model.changed.keys) == ["b"])
        #expect(model.previousAttributes() == ["a": 1, "b": 2])
    }

    @Test func anEqualValueWithOtherBitsKeepsTheModelsValue() {
        let model = Model(["a": 1, "b": 2])
        model.set(["a": 1.0, "b": 20])
        guard case .int(1)? = model["a"] else {
            Issue.record("a is \(String(describing: model["a"])), not the integer 1")
            return
        }
        #expect(model["b"] == 20)
        #expect(model.changed == ["b": 20])
    }

    @Test func keysInAnotherOrderKeepTheModelsOrder() {
        let model = Model(["a": 1, "b": 2])
        let input: Attributes = ["b": 20, "a": 10]
        model.set(input)
        #expect(!model.storage.isIdentical(to: input))
        #expect(model.attributes.keys == ["a", "b"])
        #expect(model.attributes == ["a": 10, "b": 20])
        #expect(Array(model.changed.keys) == ["b", "a"])
    }

    @Test func aLiteralWithADuplicateKeySetsItsLastValue() {
        let model = Model(["x": 1])
        var values: [JSONValue?] = []
        model.on("change:x") { event in values.append(event.value) }
        model.set(["x": 2, "x": 3])
        #expect(model["x"] == 3)
        #expect(model.attributes.count == 1)
        #expect(model.changed == ["x": 3])
        #expect(values == [3])
    }

    @Test func handlersSeeThePreviousAttributesAndMaySetAgain() {
        let model = Model(["x": 1])
        var previousInHandler: Attributes = [:]
        var changedInChange: Attributes = [:]
        var changeCount = 0
        model.on("change:x") { _ in
            previousInHandler = model.previousAttributes()
            if model["x"] == 2 { model.set(["x": 5]) }
        }
        model.on("change") { _ in
            changeCount += 1
            changedInChange = model.changed
        }
        let input: Attributes = ["x": 2]
        model.set(input)
        #expect(previousInHandler == ["x": 1])
        #expect(model["x"] == 5)
        #expect(changedInChange == ["x": 5])
        #expect(model.previousAttributes() == ["x": 1])
        #expect(changeCount == 1)
        // The nested set changed `changed`, not the caller's input.
        #expect(input == ["x": 2])
    }

    @Test func aSetThatAddsAKeyMovesTheLayoutAndLaterSetsAdoptTheLongerInput() {
        let model = Model(["x": 1])
        let layout = model.layout
        model.set(["x": 2, "y": 1])
        #expect(model.layout !== layout)
        #expect(model.changed == ["x": 2, "y": 1])
        #expect(model.previousAttributes() == ["x": 1])
        let input: Attributes = ["x": 3, "y": 4]
        model.set(input)
        #expect(model.storage.isIdentical(to: input))
        #expect(model.previousAttributes() == ["x": 2, "y": 1])
        #expect(model.changed == ["x": 3, "y": 4])
    }

    @Test func aRejectedSetOfEveryAttributeChangesNothing() {
        let model = NonNegativeX(["x": 1])
        model.set(["x": 2])
        #expect(!model.set(["x": -1]))
        #expect(model["x"] == 2)
        #expect(model.previousAttributes() == ["x": 1])
        #expect(model.changed == ["x": 2])
    }

    @Test func aSilentSetOfEveryAttributeFiresNothingAndRecordsTheChange() {
        let model = Model(["x": 1])
        var fired = false
        model.on("all") { _ in fired = true }
        model.set(["x": 2], silent: true)
        #expect(!fired)
        #expect(model["x"] == 2)
        #expect(model.changed == ["x": 2])
    }

    @Test func aModelWithManyAttributesFindsEveryKeyInTheAdoptedStorage() {
        let keys = (0..<20).map { "key\($0)" }
        let model = Model(Attributes(uniqueKeysWithLastValues: keys.map { ($0, JSONValue.int(0)) }))
        let input = Attributes(uniqueKeysWithLastValues: keys.enumerated().map { ($1, JSONValue.int($0 + 1)) })
        model.set(input)
        #expect(model.storage.isIdentical(to: input))
        for (offset, key) in keys.enumerated() { #expect(model[key] == .int(offset + 1)) }
        model.set("key7", 70)
        #expect(model["key7"] == 70)
        #expect(input["key7"] == 8)
    }

    @Test func observersAreToldOfEachChangedAttributeWhenTheInputIsAdopted() {
        let model = Model(["a": 1, "b": 2])
        let aChanges = AttributeChangeCounter(model, "a")
        let bChanges = AttributeChangeCounter(model, "b")
        let input: Attributes = ["a": 1, "b": 5]
        model.set(input)
        #expect(model.storage.isIdentical(to: input))
        #expect(aChanges.count == 0)
        #expect(bChanges.count == 1)
    }
}
