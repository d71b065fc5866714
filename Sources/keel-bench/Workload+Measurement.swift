extension Workload {
    /// Measures the workload with its trials alternating: one untimed warm-up of each floor
    /// and further trial, then `repetitions` rounds of Keel, the machine floor, the same-work
    /// floor and the further trials, in that order, each run on fresh state.
    ///
    /// Alternating keeps each repetition of Keel within seconds of the floors' (a machine
    /// whose speed drifts slows both alike), and ``TrialResult/pairedRatio(over:)`` compares
    /// them repetition by repetition.
    ///
    /// - Parameters:
    ///   - repetitions: The timed rounds.
    ///   - keelWarmUp: Keel's result after its untimed first run, made before any floor ran so
    ///     that the peak RSS then was Keel's own; a failure there ends Keel's measurement.
    ///   - peakKilobytesSoFar: The process's peak RSS after that first run.
    func measure(repetitions: Int, keelWarmUp: TrialResult, peakKilobytesSoFar: Int) -> WorkloadResult {
        var keel = keelWarmUp
        var floor = TrialResult()
        var sameWork = TrialResult()
        var further = comparisons.map { _ in TrialResult() }
        for round in 0...repetitions {
            let timed = round > 0
            if timed { self.keel.run(into: &keel, timed: true, expectedCheck: expectedCheck) }
            self.floor.run(into: &floor, timed: timed, expectedCheck: expectedCheck)
            sameWorkFloor?.run(into: &sameWork, timed: timed, expectedCheck: expectedCheck)
            for index in comparisons.indices {
                let comparison = comparisons[index]
                comparison.trial.run(
                    into: &further[index],
                    timed: timed,
                    expectedCheck: comparison.expectedCheck ?? expectedCheck
                )
            }
        }
        return WorkloadResult(
            workload: self,
            keel: keel,
            floor: floor,
            sameWorkFloor: sameWorkFloor.map { _ in sameWork },
            comparisons: zip(comparisons, further).map { ($0, $1) },
            peakKilobytesSoFar: peakKilobytesSoFar
        )
    }
}
