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
    var medianMilliseconds: Double? { Self.median(of: times) }

    /// The median of the repetitions' process CPU times, in milliseconds.
    var medianCPUMilliseconds: Double? { Self.median(of: cpuTimes) }

    private static func median(of durations: [Duration]) -> Double? {
        let sorted = durations.map(\.milliseconds).sorted()
        guard !sorted.isEmpty else { return nil }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

extension Trial {
    /// Runs the benchmark protocol on this trial.
    ///
    /// One untimed warm-up run on fresh state, then `repetitions` timed runs, each on fresh
    /// state. Every run, the warm-up included, must return `expectedCheck`; the first one that
    /// does not ends the measurement.
    func measure(repetitions: Int, expectedCheck: Int) -> TrialResult {
        var result = TrialResult()
        do {
            for run in 0...repetitions {
                let sample = try self.run()
                result.check = sample.check
                try expect(sample.check == expectedCheck, "check \(sample.check), expected \(expectedCheck)")
                if run > 0 {
                    result.times.append(sample.elapsed)
                    result.cpuTimes.append(sample.cpu)
                }
            }
        } catch {
            result.failure = String(describing: error)
        }
        return result
    }
}

extension Duration {
    /// The duration in milliseconds.
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}
