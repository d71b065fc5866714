import Testing

@testable import Keel

/// A model's `set` bookkeeping (previous attributes, `changed`, the pending `change`) lives
/// out of line and is created by the first `set`; the values a `set` compares are found
/// equal by their bits or by `==`, and inputs too large for a slot set take the general path.
struct ModelChangeRecordTests {
    @Test func aModelThatWasNeverSetCarriesNoChangeRecordAndReportsNoChange() {
        let model = Model(["a": 1, "b": 2])
        #expect(model.storedChangeRecord == nil)
        #expect(model.previousAttributes().isEmpty)
        #expect(model.previous("a") == nil)
        #expect(model.changed.isEmpty)
        #expect(!model.hasChanged())
        #expect(model.changedAttributes() == nil)
        #expect(model.changedAttributes(["a": 5]) == ["a": 5])
        #expect(model.storedChangeRecord == nil)
    }

    @Test func theFirstSetCreatesTheRecordEvenWhenItChangesNothing() {
        let model = Model(["a": 1])
        model.set("a", 1)
        #expect(model.storedChangeRecord != nil)
        #expect(model.previousAttributes() == ["a": 1])
        #expect(model.changed.isEmpty)
    }

    @Test func aRejectedFirstSetLeavesNoPreviousAttributes() {
        final class Positive: Model {
            override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
                (attributes["x"]?.intValue ?? 0) < 0 ? ["x": ["must not be negative"]] : nil
            }
        }
        let model = Positive(["x": 1])
        #expect(!model.set("x", -1))
        #expect(model.previousAttributes().isEmpty)
        #expect(model.changed.isEmpty)
        #expect(model["x"] == 1)
    }

    @Test func valuesEqualByValueButNotByBitsAreUnchanged() {
        let long = "a string longer than fifteen bytes"
        let model = Model(["n": 1, "d": .double(.nan), "s": .string(long), "o": ["k": 1]])
        var events: [String] = []
        model.on("all") { event in events.append(event.name) }
        let copy = String(decoding: Array(long.utf8), as: UTF8.self)
        #expect(model.set(["n": 1.0, "d": .double(.nan), "s": .string(copy), "o": ["k": 1]]))
        #expect(events.isEmpty)
        #expect(model.changed.isEmpty)
    }

    @Test func equalAndChangedValuesMixedFireEventsForTheChangedOnesInInputOrder() {
        let model = Model(["a": 1, "b": "x", "c": true, "d": nil])
        var events: [String] = []
        model.on("all") { event in events.append(event.name) }
        model.set(["d": 0, "b": "x", "a": 2, "c": true])
        #expect(events == ["change:d", "change:a", "change"])
        #expect(Array(model.changed.keys) == ["d", "a"])
    }

    @Test func aSetOfMoreKeysThanASlotSetHoldsChangesThemAllInInputOrder() {
        let count = PositionSet.capacity + 6
        let keys = (0..<count).map { "k\($0)" }
        let model = Model(JSONObject(uniqueKeysWithLastValues: keys.map { ($0, JSONValue.int(0)) }))
        let layout = model.layout
        var events: [String] = []
        model.on("all") { event in events.append(event.name) }
        let input = JSONObject(uniqueKeysWithLastValues: keys.reversed().enumerated().map { ($1, .int($0 % 2)) })
        model.set(input)
        let changedKeys = keys.reversed().enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        #expect(events == changedKeys.map { "change:" + $0 } + ["change"])
        #expect(Array(model.changed.keys) == changedKeys)
        #expect(model.layout === layout)
    }
}

/// The set of changed input positions of a `set`.
struct PositionSetTests {
    @Test func positionsComeOutInAscendingOrderWhateverTheOrderOfInsertion() {
        var set = PositionSet()
        #expect(set.isEmpty)
        for position in [63, 0, 17, 5, 17] { set.insert(position) }
        #expect(!set.isEmpty)
        #expect(Array(set) == [0, 5, 17, 63])
    }
}
