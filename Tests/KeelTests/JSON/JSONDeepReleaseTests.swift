import Keel
import Testing

/// Deeper than a 512 KiB stack allows when each level takes a recursive call.
private let depth = 100_000

/// Values nested far too deep for recursion are freed when the last reference goes, with
/// no help: each test builds and frees them on a thread with a 512 KiB stack
/// (``onSmallStack(stackSize:_:)``), which freeing that recursed once per level would overflow.
struct JSONDeepReleaseTests {
    @Test(arguments: Nesting.allCases)
    func aValueNestedFarTooDeepIsFreedWhenItGoesOutOfScope(nesting: Nesting) async {
        let wasBuilt = await onSmallStack {
            let value = nesting.build(depth, around: ["leaf": [1, "x"]])
            return value.arrayValue != nil || value.objectValue != nil
        }
        // Returning from there means the value was freed without exhausting the stack.
        #expect(wasBuilt)
    }

    @Test(arguments: Nesting.allCases)
    func replacingAVariableFreesTheDeepValueItHeld(nesting: Nesting) async {
        let isNull = await onSmallStack {
            var value = nesting.build(depth, around: 1)
            value = .null
            return value.isNull
        }
        #expect(isNull)
    }

    @Test(arguments: Nesting.allCases)
    func aDeepValueInsideAnObjectAndASwiftArrayIsFreed(nesting: Nesting) async {
        let areEmpty = await onSmallStack {
            var attributes: JSONObject = ["payload": nesting.build(depth, around: 1)]
            var values: [JSONValue] = [nesting.build(depth, around: 2)]
            attributes["payload"] = nil
            values.removeAll()
            return attributes.isEmpty && values.isEmpty
        }
        #expect(areEmpty)
    }

    @Test(arguments: Nesting.allCases)
    func aModelHoldingADeepValueIsFreed(nesting: Nesting) async {
        let held = await onSmallStack {
            let model = Model(["payload": nesting.build(depth, around: 1)])
            return model["payload"] != nil
        }
        #expect(held)
    }

    @Test(arguments: Nesting.allCases)
    func freeingADeepValueLeavesTheSharedPartsOfItIntact(nesting: Nesting) async {
        let (differs, intact, differsFromAnother) = await onSmallStack {
            let half = depth / 2
            let inner = nesting.build(half, around: 7)
            let differs: Bool
            do {
                let outer = nesting.build(half, around: inner)
                differs = outer != inner
            }
            // Freeing `outer` must not have taken apart the levels it shares with `inner`.
            return (differs, inner == nesting.build(half, around: 7), inner != nesting.build(half, around: 8))
        }
        #expect(differs)
        #expect(intact)
        #expect(differsFromAnother)
    }

    @Test func aCopyKeepsADeepValueAliveUntilTheLastCopyGoes() async {
        let kept = await onSmallStack {
            var first: JSONValue? = Nesting.mixed.build(depth, around: "end")
            let second = first
            first = nil
            return second == Nesting.mixed.build(depth, around: "end")
        }
        #expect(kept)
    }

    @Test func aWideValueWithDeepBranchesIsFreed() async {
        let (count, isNull) = await onSmallStack {
            let branches = (0..<10).map { Nesting.allCases[$0 % 3].build(depth, around: .int($0)) }
            var value = JSONValue.array(JSONArray(branches))
            let count = value.arrayValue?.count
            value = .null
            return (count, value.isNull)
        }
        #expect(count == 10)
        #expect(isNull)
    }
}
