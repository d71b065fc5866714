import Testing

@testable import Keel

/// The order a stable comparison sort gives: by key, then by position.
private func referenceOrder(_ keys: [Int]) -> [Int] {
    keys.indices.sorted { (keys[$0], $0) < (keys[$1], $1) }
}

private func radixOrder(_ keys: [Int]) -> [Int] {
    Array(keys.withUnsafeBufferPointer(IntegerRadixSort.order))
}

/// Deterministic keys: Park–Miller draws mapped into `range`.
private func drawnKeys(count: Int, in range: ClosedRange<Int>, seed: Int = 42) -> [Int] {
    var state = seed
    let width = UInt64(bitPattern: Int64(range.upperBound &- range.lowerBound)) &+ 1
    return (0..<count).map { _ in
        state = state * 48_271 % 2_147_483_647
        let draw = UInt64(state) &* 0x9E37_79B9_7F4A_7C15
        return width == 0 ? Int(bitPattern: UInt(draw)) : range.lowerBound &+ Int(bitPattern: UInt(draw % width))
    }
}

@Suite("Integer radix sort")
struct IntegerRadixSortTests {
    @Test func emptyAndSingleKeysNeedNoMoves() {
        #expect(radixOrder([]).isEmpty)
        #expect(radixOrder([7]) == [0])
    }

    @Test(arguments: [10, IntegerRadixSort.comparisonSortLimit - 1, IntegerRadixSort.comparisonSortLimit, 5_000])
    func ordersLikeAStableComparisonSort(count: Int) {
        let keys = drawnKeys(count: count, in: 0...999)
        #expect(radixOrder(keys) == referenceOrder(keys))
    }

    @Test func equalKeysKeepTheirPositions() {
        let keys = Array(repeating: 3, count: 1_000)
        #expect(radixOrder(keys) == Array(0..<1_000))
    }

    @Test func keysInFewValuesStayStable() {
        let keys = (0..<3_000).map { $0 % 3 }
        #expect(radixOrder(keys) == referenceOrder(keys))
    }

    @Test func negativeKeysSortBeforePositiveOnes() {
        let keys = drawnKeys(count: 2_000, in: -50_000...50_000)
        #expect(radixOrder(keys) == referenceOrder(keys))
    }

    @Test func theWholeRangeOfIntegersSorts() {
        var keys = drawnKeys(count: 4_000, in: Int.min...Int.max)
        keys += [.min, .max, 0, -1, .min, .max, 1 << 53, 1 << 53 + 1]
        #expect(radixOrder(keys) == referenceOrder(keys))
    }

    @Test func keysThatDifferOnlyInHighDigitsSort() {
        let keys = (0..<1_000).map { ($0 * 7_919 % 1_000) << 40 }
        #expect(radixOrder(keys) == referenceOrder(keys))
    }

    @Test func alreadySortedAndReversedKeysSort() {
        let ascending = Array(-500..<1_500)
        #expect(radixOrder(ascending) == Array(ascending.indices))
        let descending = Array(ascending.reversed())
        #expect(radixOrder(descending) == referenceOrder(descending))
    }
}
