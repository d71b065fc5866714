import Observation
import Testing

@testable import Keel

/// Models with the same keys share one attribute layout; a new key moves a model to the
/// next layout, and everything read by slot stays right as keys come and go.
struct AttributeLayoutTests {
    @Test func modelsWithTheSameKeysShareOneLayout() {
        let first = Model(["id": 1, "title": "a", "rank": 3])
        let second = Model(["id": 2, "title": "b", "rank": 4])
        #expect(first.layout === second.layout)
        #expect(Array(first.layout.keys) == ["id", "title", "rank"])
    }

    /// Many key sets built in turn, more than the recent layouts the process remembers and
    /// several in one set of them, each find their own layout every round.
    @Test func keySetsBuiltInTurnFindTheirOwnLayouts() {
        let keySets = (0..<40).map { set in (0...(set % 5)).map { "k\(set)_\($0)" } }
        var layouts: [AttributeLayout] = []
        for round in 0..<3 {
            for (index, keys) in keySets.enumerated() {
                let model = Model(JSONObject(uniqueKeysWithLastValues: keys.map { ($0, JSONValue.int(round)) }))
                #expect(Array(model.layout.keys) == keys)
                #expect(model.layout.isShared)
                if round == 0 { layouts.append(model.layout) } else { #expect(model.layout === layouts[index]) }
            }
        }
    }

    /// The same keys in another order are another layout, whichever was built last.
    @Test func theSameKeysInAnotherOrderAreAnotherLayout() {
        let forward = Model(["a": 1, "b": 2, "c": 3])
        let backward = Model(["c": 1, "b": 2, "a": 3])
        let forwardAgain = Model(["a": 4, "b": 5, "c": 6])
        #expect(forward.layout !== backward.layout)
        #expect(Array(backward.layout.keys) == ["c", "b", "a"])
        #expect(forwardAgain.layout === forward.layout)
        #expect(forwardAgain.layout.slot(of: "c") == 2)
    }

    /// A model built from keys that begin with another model's keys finds the longer layout,
    /// not the one its first keys share.
    @Test func keysThatExtendAnotherModelsKeysFindTheLongerLayout() {
        let short = Model(["id": 1, "title": "a"])
        let long = Model(["id": 2, "title": "b", "rank": 3])
        let shortAgain = Model(["id": 3, "title": "c"])
        #expect(long.layout !== short.layout)
        #expect(long.layout.count == 3)
        #expect(shortAgain.layout === short.layout)
        #expect(long.id == 2 && shortAgain.id == 3)
    }

    @Test func aNewKeyMovesTheModelToTheLayoutWithThatKeyAdded() {
        let grown = Model(["id": 1, "title": "a"])
        grown.set("rank", 5)
        let built = Model(["id": 2, "title": "b", "rank": 6])
        #expect(grown.layout === built.layout)
        #expect(grown.get("rank") == 5)
        #expect(grown.layout.slot(of: "rank") == 2)
    }

    @Test func theLayoutFollowsTheKeysThroughUnsetAndClear() {
        let model = Model(["a": 1, "b": 2, "c": 3])
        model.unset("b")
        #expect(Array(model.layout.keys) == model.attributes.keys)
        #expect(model.get("b") == nil)
        #expect(model.get("c") == 3)
        #expect(!model.has("b"))
        model.set("b", 4)
        #expect(Array(model.layout.keys) == ["a", "c", "b"])
        #expect(model.get("b") == 4)
        model.clear()
        #expect(model.layout === AttributeLayout.empty)
        #expect(model.get("a") == nil)
    }

    @Test func changeEventsNameTheAttributeWhetherItIsSetAddedOrRemoved() {
        let model = Model(["a": 1])
        var names: [String] = []
        var values: [JSONValue?] = []
        model.on("all") { event in
            names.append(event.name)
            values.append(event.value)
        }
        model.set(["a": 2, "z": 3])
        model.unset("a")
        #expect(names == ["change:a", "change:z", "change", "change:a", "change"])
        #expect(values == [2, 3, nil, nil, nil])
    }

    @Test func aModelWithManyKeysGetsALayoutOfItsOwnAndReadsEveryKey() {
        let count = AttributeLayout.maximumSharedKeys + 8
        let attributes = JSONObject(uniqueKeysWithLastValues: (0..<count).map { ("key\($0)", JSONValue.int($0)) })
        let model = Model(attributes)
        #expect(!model.layout.isShared)
        #expect(model.layout.count == count)
        for index in 0..<count { #expect(model.get("key\(index)") == .int(index)) }
        model.set("key3", 99)
        #expect(model.get("key3") == 99)
    }

    @Test func attributesReadBySlotAreTrackedByObservation() {
        let model = Model(["title": "a", "rank": 1])
        let titleChanges = Lock(0)
        withObservationTracking {
            _ = model.get("title")
        } onChange: {
            titleChanges.withLock { $0 += 1 }
        }
        model.set("rank", 2)
        #expect(titleChanges.withLock { $0 } == 0)
        model.set("title", "b")
        #expect(titleChanges.withLock { $0 } == 1)
    }

    @Test func modelsWhoseKeysDifferOnlyInTheMiddleGetTheirOwnLayouts() {
        for round in 0..<3 {
            let plain = Model(["a": .int(round), "b": 1, "c": 2])
            let other = Model(["a": .int(round), "x": 1, "c": 2])
            #expect(Array(plain.layout.keys) == ["a", "b", "c"])
            #expect(Array(other.layout.keys) == ["a", "x", "c"])
            #expect(other.get("x") == 1)
            #expect(other.get("b") == nil)
        }
    }

    @Test func canonicallyEquivalentKeysFindTheirSlot() {
        let model = Model(["caf\u{E9}": 1])
        #expect(model.get("cafe\u{301}") == 1)
        #expect(model.layout.slot(of: "cafe\u{301}") == 0)
    }

    @Test func keysThatAreEqualButNotIdenticalFindTheirSlot() {
        let kelvin = "\u{212A}"
        let model = Model([kelvin: 1, "other": 2])
        #expect(model.get("K") == 1)
        #expect(model.has("K"))
        #expect(model.layout.slot(of: "K") == 0)
    }

    @Test(arguments: [4, 5, 12, 13, 40, 64])
    func everyKeyOfALayoutFindsItsSlot(keyCount: Int) {
        let keys = (0..<keyCount).map { "key\($0)" }
        let model = Model(Attributes(uniqueKeysWithLastValues: keys.enumerated().map { ($1, JSONValue.int($0)) }))
        for (slot, key) in keys.enumerated() {
            #expect(model.layout.slot(of: key) == slot)
            #expect(model.get(key) == .int(slot))
        }
        #expect(model.layout.slot(of: "missing") == nil)
        #expect(model.layout.slot(of: "key\(keyCount)") == nil)
        #expect(model.layout.slot(of: "a key longer than fifteen bytes") == nil)
        #expect(!model.has(""))
    }

    @Test func keysLongerThanASmallStringFindTheirSlotInAWideLayout() {
        let long = "created_at_in_the_time_zone_of_the_server"
        let model = Model(["id": 1, "title": "a", "rank": 2, long: "x", "done": false])
        #expect(model.get(long) == "x")
        #expect(model.get(String(long.prefix(10)) + String(long.dropFirst(10))) == "x")
        #expect(model.get("rank") == 2)
        #expect(model.layout.slot(of: "created_at") == nil)
    }

    @Test func equalKeysThatAreNotSmallASCIIFindTheirSlotInAWideLayout() {
        let kelvin = "\u{212A}"
        let withKelvin = Model([kelvin: 1, "a": 2, "b": 3, "c": 4])
        #expect(withKelvin.get("K") == 1)
        #expect(withKelvin.get("b") == 3)
        let withK = Model(["K": 1, "a": 2, "b": 3, "c": 4])
        #expect(withK.get(kelvin) == 1)
        let accented = Model(["caf\u{E9}": 1, "a": 2, "b": 3, "c": 4])
        #expect(accented.get("cafe\u{301}") == 1)
        #expect(accented.layout.slot(of: "cafe\u{301}") == 0)
    }
}
