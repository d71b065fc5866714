/// The outcome of running one trial with the benchmark protocol.
struct TrialResult {
    /// The timed repetitions, in order.
    var times: [Duration] = []
    /// The process CPU time of each timed repetition, in order.
    var cpuTimes: [Duration] = []
    /// The check value of the last run.
    var check: Int?
    /// Why a run failed, when one did.
    var failure: String?

    /// The median of the timed repetitions, in milliseconds.
    var medianMilliseconds: Double? { Self.median(of: times.map(\.milliseconds)) }

    /// The median of the repetitions' process CPU times, in milliseconds.
    var medianCPUMilliseconds: Double? { Self.median(of: cpuTimes.map(\.milliseconds)) }

    fileprivate static func median(of values: [Double]) -> Double? {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return nil }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

extension Trial {
    /// Runs this trial once on fresh state and checks it; a timed run's time joins `result`.
    ///
    /// Does nothing once `result` holds a failure, and records the first wrong check value or
    /// error as the failure.
    ///
    /// - Parameters:
    ///   - result: Where the run's time, CPU time and check value go.
    ///   - timed: `false` for a warm-up, whose time is discarded.
    ///   - expectedCheck: The value the run's verification must return.
    func run(into result: inout TrialResult, timed: Bool, expectedCheck: Int) {
        guard result.failure == nil else { return }
        do {
            let sample = try run()
            result.check = sample.check
            try expect(sample.check == expectedCheck, "check \(sample.check), expected \(expectedCheck)")
            if timed {
                result.times.append(sample.elapsed)
                result.cpuTimes.append(sample.cpu)
            }
        } catch {
            result.failure = String(describing: error)
        }
    }
}

extension TrialResult {
    /// The median over repetitions of this result's time over `other`'s in the same
    /// repetition, or `nil` when either has no timed run.
    ///
    /// Repetitions of the two trials alternate (``WorkloadMeasurement``), so each pair ran
    /// within seconds of each other: on a machine whose speed drifts, the ratio of a pair is
    /// steadier than the ratio of two medians taken minutes apart.
    func pairedRatio(over other: TrialResult) -> Double? {
        Self.median(of: zip(times, other.times).map { $0.milliseconds / $1.milliseconds })
    }
}

extension Duration {
    /// The duration in milliseconds.
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}
