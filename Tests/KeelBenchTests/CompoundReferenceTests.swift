import Keel
import Testing

@testable import keel_bench

/// `jsonapi_compound`'s goal is per model against `parse_reset`, so a `parse_reset` of as many
/// notes as the document builds models runs beside it, repetition by repetition, and the
/// report carries Keel's time over it, paired (`parse_reset_ratio`).
struct CompoundReferenceTests {
    private func compoundWorkload() throws -> Workload {
        try #require(Workload.anchors.first { $0.name == "jsonapi_compound" })
    }

    @Test func theReferenceParsesAndResetsAsManyNotesAsTheDocumentBuildsModels() throws {
        let comparison = try #require(try compoundWorkload().comparisons.first)
        #expect(comparison.name == "parse_reset")
        #expect(comparison.ops == 2 * compoundArticles)
        let sample = try comparison.trial.run(counted: false)
        #expect(sample.check == comparison.expectedCheck)
        #expect(sample.check == orderChecksum(Array(0..<(2 * compoundArticles))))
    }

    @Test func theReportPairsKeelsTimeWithTheReferencesAndCountsTheReferencesOwnOperations() throws {
        let workload = try compoundWorkload()
        let comparison = try #require(workload.comparisons.first)
        let reference = TrialResult(
            times: [.milliseconds(2), .milliseconds(4), .milliseconds(2)],
            check: comparison.expectedCheck
        )
        let result = WorkloadResult(
            workload: workload,
            keel: TrialResult(
                times: [.milliseconds(3), .milliseconds(4), .milliseconds(5)],
                check: workload.expectedCheck
            ),
            floor: TrialResult(
                times: [.milliseconds(1), .milliseconds(1), .milliseconds(1)],
                check: workload.expectedCheck
            ),
            sameWorkFloor: nil,
            comparisons: [(comparison, reference)],
            peakKilobytesSoFar: 1
        )
        // The pairs give ×1.5, ×1 and ×2.5: the median is ×1.5, where the medians' ratio is ×2.
        #expect(result.json["parse_reset_ratio"] == 1.5)
        #expect(result.json["parse_reset_ops_per_sec"] == 1_000_000)
        #expect(result.json["parse_reset_expected_check"] == .int(comparison.expectedCheck ?? -1))
        #expect(result.succeeded)
    }
}
