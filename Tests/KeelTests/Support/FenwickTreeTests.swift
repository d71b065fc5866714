import Testing

@testable import Keel

/// The tree of marked positions behind a collection's removal slots and `remove`'s indexes
/// agrees with a plain array of flags through random marks and unmarks.
struct FenwickTreeTests {
    @Test func prefixSumsAndRanksMatchAnArrayOfFlagsThroughRandomMarks() {
        let count = 300
        var tree = FenwickTree(count: count)
        var marked = [Bool](repeating: false, count: count)
        var state: UInt64 = 42
        for step in 0..<3_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let index = Int(state >> 33) % count
            if marked[index] { tree.decrement(at: index) } else { tree.increment(at: index) }
            marked[index].toggle()
            guard step % 100 == 0 else { continue }
            for position in 0...count {
                #expect(tree.prefixSum(upTo: position) == marked[..<position].count { $0 })
            }
            let unmarked = marked.indices.filter { !marked[$0] }
            for rank in unmarked.indices {
                #expect(tree.unmarked(rank: rank) == unmarked[rank])
            }
        }
    }

    @Test func aTreeBuiltFromFlagsMatchesOneMarkedPositionByPosition() {
        let flags = (0..<100).map { $0 % 3 == 0 || $0 % 7 == 0 }
        let built = FenwickTree(count: 128) { $0 < flags.count && flags[$0] }
        var marked = FenwickTree(count: 128)
        for index in flags.indices where flags[index] { marked.increment(at: index) }
        #expect((0...128).allSatisfy { built.prefixSum(upTo: $0) == marked.prefixSum(upTo: $0) })
        #expect(built.count == 128)
    }
}
