import Keel
import Testing

/// Ten times deeper than the values the other deep-nesting tests use.
private let millionLevels = 1_000_000

/// Values nested far too deep for recursion are freed when the last reference goes, with
/// no help: each test would overflow the stack if freeing recursed once per level.
struct JSONDeepReleaseTests {
    @Test(arguments: Nesting.allCases)
    func aValueNestedAMillionLevelsDeepIsFreedWhenItGoesOutOfScope(nesting: Nesting) {
        do {
            let value = nesting.build(millionLevels, around: ["leaf": [1, "x"]])
            #expect(value.arrayValue != nil || value.objectValue != nil)
        }
        // Returning from here means the value was freed without exhausting the stack.
    }

    @Test(arguments: Nesting.allCases)
    func replacingAVariableFreesTheDeepValueItHeld(nesting: Nesting) {
        var value = nesting.build(millionLevels, around: 1)
        value = .null
        #expect(value.isNull)
    }

    @Test(arguments: Nesting.allCases)
    func aDeepValueInsideAnObjectAndASwiftArrayIsFreed(nesting: Nesting) {
        var attributes: JSONObject = ["payload": nesting.build(millionLevels, around: 1)]
        var values: [JSONValue] = [nesting.build(millionLevels, around: 2)]
        attributes["payload"] = nil
        values.removeAll()
        #expect(attributes.isEmpty && values.isEmpty)
    }

    @Test(arguments: Nesting.allCases)
    func aModelHoldingADeepValueIsFreed(nesting: Nesting) {
        do {
            let model = Model(["payload": nesting.build(millionLevels, around: 1)])
            #expect(model["payload"] != nil)
        }
    }

    @Test(arguments: Nesting.allCases)
    func freeingADeepValueLeavesTheSharedPartsOfItIntact(nesting: Nesting) {
        let half = millionLevels / 2
        let inner = nesting.build(half, around: 7)
        do {
            let outer = nesting.build(half, around: inner)
            #expect(outer != inner)
        }
        // Freeing `outer` must not have taken apart the levels it shares with `inner`.
        #expect(inner == nesting.build(half, around: 7))
        #expect(inner != nesting.build(half, around: 8))
    }

    @Test func aCopyKeepsADeepValueAliveUntilTheLastCopyGoes() {
        var first: JSONValue? = Nesting.mixed.build(millionLevels, around: "end")
        let second = first
        first = nil
        #expect(second == Nesting.mixed.build(millionLevels, around: "end"))
    }

    @Test func aWideValueWithDeepBranchesIsFreed() {
        let branches = JSONArray((0..<10).map { Nesting.allCases[$0 % 3].build(100_000, around: .int($0)) })
        var value = JSONValue.array(branches)
        #expect(value.arrayValue?.count == 10)
        value = .null
        #expect(value.isNull)
    }
}
