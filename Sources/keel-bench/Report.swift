import Foundation
import Keel

/// What one workload measured: Keel's trial, the machine floor's, the same-work floor's where
/// the workload has one, and the peak RSS after Keel's.
struct WorkloadResult {
    let workload: Workload
    let keel: TrialResult
    let floor: TrialResult
    /// `nil` for a workload without a same-work floor.
    let sameWorkFloor: TrialResult?
    /// The workload's further trials, measured after the floors in each repetition.
    let comparisons: [(comparison: Comparison, result: TrialResult)]
    /// The process's peak RSS (KiB) after this workload's first Keel run.
    let peakKilobytesSoFar: Int

    /// Whether every side produced the expected check value in every run.
    var succeeded: Bool {
        keel.failure == nil && floor.failure == nil && sameWorkFloor?.failure == nil
            && comparisons.allSatisfy { $0.result.failure == nil }
    }

    /// The output line `name ops_per_sec total_ms floor_ops_per_sec floor_total_ms
    /// same_work_floor_ops_per_sec same_work_floor_total_ms ×floor ×same_work_floor` (`-` for a
    /// missing same-work floor; each ratio Keel's time over the floor's, repetition by
    /// repetition, at the median), then `comparison ops_per_sec total_ms` per further trial, or
    /// the failure.
    var line: String {
        guard let keelMilliseconds = keel.medianMilliseconds else {
            return "\(workload.name) FAILED \(keel.failure ?? "no timed run")"
        }
        let keelPart = "\(workload.name) " + Self.sideText(ops: workload.ops, milliseconds: keelMilliseconds)
        guard let floorMilliseconds = floor.medianMilliseconds else {
            return keelPart + " floor FAILED \(floor.failure ?? "no timed run")"
        }
        let floorPart = keelPart + " " + Self.sideText(ops: workload.ops, milliseconds: floorMilliseconds)
        let further = comparisons.map { comparison, result in
            guard let milliseconds = result.medianMilliseconds else {
                return " \(comparison.name) FAILED \(result.failure ?? "no timed run")"
            }
            return " \(comparison.name) "
                + Self.sideText(ops: comparison.ops ?? workload.ops, milliseconds: milliseconds)
        }.joined()
        guard let sameWorkFloor else {
            return floorPart + " - - " + Self.ratioText(keel, over: floor) + " -" + further
        }
        guard let sameWorkMilliseconds = sameWorkFloor.medianMilliseconds else {
            return floorPart + " same-work floor FAILED \(sameWorkFloor.failure ?? "no timed run")"
        }
        return floorPart + " " + Self.sideText(ops: workload.ops, milliseconds: sameWorkMilliseconds) + " "
            + Self.ratioText(keel, over: floor) + " " + Self.ratioText(keel, over: sameWorkFloor) + further
    }

    /// The workload's entry in the JSON report, with the fields `Benchmarks/compare.py` reads
    /// (`ops`, `total_ms`, `ops_per_sec`, `check`, `error`, `floor_total_ms`,
    /// `floor_ops_per_sec`), the same others as the Node harness, the same-work floor's
    /// (`same_work_floor_…`), Keel's time over each floor's repetition by repetition at the
    /// median (`floor_ratio`, `same_work_floor_ratio`), and each further trial's under its name
    /// (`codable_total_ms`), with Keel's time over its, paired the same way (`codable_ratio`).
    var json: JSONObject {
        var entry: JSONObject = ["ops": .int(workload.ops)]
        entry.addFields(of: keel, prefix: "", ops: workload.ops, expectedCheck: workload.expectedCheck)
        entry.addFields(of: floor, prefix: "floor_", ops: workload.ops, expectedCheck: workload.expectedCheck)
        entry["floor_ratio"] = Self.ratio(keel, over: floor)
        if let sameWorkFloor {
            entry.addFields(
                of: sameWorkFloor,
                prefix: "same_work_floor_",
                ops: workload.ops,
                expectedCheck: workload.expectedCheck
            )
            entry["same_work_floor_ratio"] = Self.ratio(keel, over: sameWorkFloor)
        }
        for (comparison, result) in comparisons {
            entry.addFields(
                of: result,
                prefix: comparison.name + "_",
                ops: comparison.ops ?? workload.ops,
                expectedCheck: comparison.expectedCheck ?? workload.expectedCheck
            )
            entry[comparison.name + "_ratio"] = Self.ratio(keel, over: result)
        }
        entry["max_rss_kb"] = .int(peakKilobytesSoFar)
        return entry
    }

    /// Keel's time over a floor's, repetition by repetition, at the median
    /// (``TrialResult/pairedRatio(over:)``), to three decimals, or `null` when either failed.
    private static func ratio(_ keel: TrialResult, over floor: TrialResult) -> JSONValue {
        keel.pairedRatio(over: floor).map { .double(rounded($0)) } ?? .null
    }

    private static func sideText(ops: Int, milliseconds: Double) -> String {
        rateText(ops: ops, milliseconds: milliseconds) + " " + millisecondsText(milliseconds)
    }

    private static func ratioText(_ keel: TrialResult, over floor: TrialResult) -> String {
        keel.pairedRatio(over: floor).map { "×" + String(format: "%.2f", $0) } ?? "-"
    }

    /// Operations per second, rounded as the Node harness rounds them: to whole numbers from
    /// 1000 up, else to three decimals.
    static func rate(ops: Int, milliseconds: Double) -> Double {
        let rate = Double(ops) / (milliseconds / 1_000)
        return rate >= 1_000 ? rate.rounded() : rounded(rate)
    }

    private static func rateText(ops: Int, milliseconds: Double) -> String {
        let rate = rate(ops: ops, milliseconds: milliseconds)
        return rate >= 1_000 ? String(Int(rate)) : String(rate)
    }

    private static func millisecondsText(_ milliseconds: Double) -> String {
        String(format: "%.3f", milliseconds)
    }

    /// `value` rounded to three decimals.
    static func rounded(_ value: Double) -> Double {
        (value * 1_000).rounded() / 1_000
    }
}

extension JSONObject {
    /// Adds one side's fields, each name prefixed with `prefix`.
    fileprivate mutating func addFields(of side: TrialResult, prefix: String, ops: Int, expectedCheck: Int) {
        let milliseconds = side.medianMilliseconds
        self[prefix + "total_ms"] = milliseconds.map { .double(WorkloadResult.rounded($0)) } ?? .null
        // Keel's writer prints integral doubles without a fraction, as Node does.
        self[prefix + "ops_per_sec"] =
            milliseconds.map { .double(WorkloadResult.rate(ops: ops, milliseconds: $0)) } ?? .null
        self[prefix + "times_ms"] = .array(side.times.map { .double(WorkloadResult.rounded($0.milliseconds)) })
        // The process CPU time (every thread's): on a loaded machine, the work done without
        // the waits for a core.
        self[prefix + "cpu_ms"] = side.medianCPUMilliseconds.map { .double(WorkloadResult.rounded($0)) } ?? .null
        self[prefix + "cpu_times_ms"] = .array(side.cpuTimes.map { .double(WorkloadResult.rounded($0.milliseconds)) })
        self[prefix + "check"] = side.check.map(JSONValue.int) ?? .null
        self[prefix + "expected_check"] = .int(expectedCheck)
        self[prefix + "check_ok"] = .bool(side.failure == nil)
        if let failure = side.failure { self[prefix + "error"] = .string(failure) }
    }
}

/// The JSON object printed after the per-workload lines.
///
/// Its `workloads` map has the same shape as the Node harness's, with the floor beside each
/// workload; `max_rss_kb` is the peak RSS of the whole process, floors included, and
/// `keel_max_rss_kb` the peak before any floor ran.
func report(
    results: [WorkloadResult],
    repetitions: Int,
    keelPeakKilobytes: Int,
    peakKilobytes: Int
) -> JSONObject {
    var workloads = JSONObject()
    for result in results { workloads[result.workload.name] = .object(result.json) }
    return [
        "harness": "keel Sources/keel-bench",
        "swift": .string(compilerVersion),
        "configuration": .string(buildConfiguration),
        "reps": .int(repetitions),
        "isolated": false,
        "max_rss_kb": .int(peakKilobytes),
        "keel_max_rss_kb": .int(keelPeakKilobytes),
        "max_rss_note": "peak RSS of this one process; keel_max_rss_kb is the peak before the floors ran",
        "all_checks_ok": .bool(results.allSatisfy(\.succeeded)),
        "workloads": .object(workloads),
    ]
}

/// The Swift compiler that built this binary, as precisely as `#if compiler` tells.
private var compilerVersion: String {
    #if compiler(>=6.4)
        return "6.4 or later"
    #elseif compiler(>=6.3)
        return "6.3"
    #elseif compiler(>=6.2)
        return "6.2"
    #elseif compiler(>=6.1)
        return "6.1"
    #else
        return "6.0"
    #endif
}

/// `release` or `debug`; only release numbers are meaningful.
private var buildConfiguration: String {
    #if DEBUG
        return "debug"
    #else
        return "release"
    #endif
}
