import Testing

@testable import keel_bench

/// `TrialResult.pairedRatio(over:)`: the ratio `compare.py` and the README report is the
/// median of the repetitions' own ratios, each pair run back to back, not a ratio of medians.
struct PairedRatioTests {
    private func result(_ milliseconds: [Int64]) -> TrialResult {
        TrialResult(times: milliseconds.map { .milliseconds($0) })
    }

    @Test func theRatioIsTheMedianOfTheRepetitionsRatios() throws {
        // Medians 30 and 10 would give ×3; the pairs give ×2, ×4 and ×1.5.
        let keel = result([20, 40, 30])
        let floor = result([10, 10, 20])
        #expect(try #require(keel.pairedRatio(over: floor)) == 2)
    }

    @Test func anEvenNumberOfPairsTakesTheMeanOfTheMiddleTwo() throws {
        let keel = result([10, 30, 40, 80])
        let floor = result([10, 10, 10, 10])
        #expect(try #require(keel.pairedRatio(over: floor)) == 3.5)
    }

    @Test func pairsStopAtTheShorterSide() throws {
        let keel = result([20, 30, 900])
        let floor = result([10, 10])
        #expect(try #require(keel.pairedRatio(over: floor)) == 2.5)
    }

    @Test func noTimedRunOnEitherSideHasNoRatio() {
        #expect(result([]).pairedRatio(over: result([10])) == nil)
        #expect(result([10]).pairedRatio(over: result([])) == nil)
    }
}
