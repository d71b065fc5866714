// keel-bench: the workloads of Benchmarks/README.md through Keel, each beside its
// plain-Swift floor; with UPLOAD_URL set, the memory of a 50 MiB upload instead
// (UploadBenchmark.swift); with REPLAY_URL set, the replay of queued writes to a server
// (ReplayBenchmark.swift); with TIMEOUT_STRESS set, many requests that must all time out
// (TimeoutStress.swift); with SCALE_CHECKS set, the costs of single removals, unsets and
// distinct attribute names at two sizes (ScaleChecks.swift); with STORE_QUERIES set, a change
// in a live query of 100,000 results and a query opened over a SQLite file
// (StoreQueryBenchmark.swift); with MEMORY_PARTS set, the heap bytes of a `Note`, part by part
// (MemoryParts.swift). Prints
// `name ops_per_sec total_ms floor_ops_per_sec floor_total_ms same_work_floor_ops_per_sec
// same_work_floor_total_ms ×floor ×same_work_floor` per workload (then
// `comparison ops_per_sec total_ms` for each further trial of it; Report.swift), then one JSON
// object (read by Benchmarks/compare.py). Exits with status 1 when a check value is wrong,
// 2 on a bad environment setting.
import Foundation
import Keel

/// Writes a progress or error message to standard error.
func log(_ message: String) {
    FileHandle.standardError.write(Data("keel-bench: \(message)\n".utf8))
}

if let upload = UploadBenchmark(environment: ProcessInfo.processInfo.environment) {
    exit(upload.runBlocking())
}
if let replay = ReplayBenchmark(environment: ProcessInfo.processInfo.environment) {
    exit(replay.runBlocking())
}

if let stress = TimeoutStress(environment: ProcessInfo.processInfo.environment) {
    exit(stress.runBlocking())
}
if let checks = ScaleChecks(environment: ProcessInfo.processInfo.environment) {
    exit(checks.runBlocking())
}
if let queries = StoreQueryBenchmark(environment: ProcessInfo.processInfo.environment) {
    exit(queries.runBlocking())
}
if let parts = MemoryParts(environment: ProcessInfo.processInfo.environment) {
    exit(parts.runBlocking())
}

let configuration: Configuration
do {
    configuration = try Configuration(environment: ProcessInfo.processInfo.environment, available: Workload.all)
} catch {
    log(String(describing: error))
    exit(2)
}

if configuration.profiling {
    // One run of each Keel trial (or floor, with PROFILE_SIDE) and nothing else, so that a
    // profiler counts exactly one timed region per workload: `name ops` per workload.
    for workload in configuration.workloads {
        let trial: Trial? =
            switch configuration.profiledSide {
            case .keel: workload.keel
            case .floor: workload.floor
            case .sameWork: workload.sameWorkFloor
            }
        guard let trial else {
            log("\(workload.name) has no same-work floor")
            continue
        }
        log("\(workload.name): \(configuration.profiledSide.rawValue), once, for a profiler")
        do {
            if configuration.profilingWarmUp { _ = try trial.run(counted: false) }
            let sample = try trial.run()
            try expect(
                sample.check == workload.expectedCheck,
                "check \(sample.check), expected \(workload.expectedCheck)"
            )
        } catch {
            log("\(workload.name) FAILED: \(error)")
            exit(1)
        }
        print("\(workload.name) \(workload.ops)")
    }
    exit(0)
}

// Every Keel trial's untimed first run comes before any floor, so that `keel_max_rss_kb` is
// Keel's own peak; then each workload's trials alternate, repetition by repetition.
var keelWarmUps: [(result: TrialResult, peakKilobytes: Int)] = []
for workload in configuration.workloads {
    log("\(workload.name): Keel, first run")
    PeakMemory.releaseFreeMemory()
    var result = TrialResult()
    workload.keel.run(into: &result, timed: false, expectedCheck: workload.expectedCheck)
    keelWarmUps.append((result, PeakMemory.kilobytes))
}
let keelPeakKilobytes = PeakMemory.kilobytes

var results: [WorkloadResult] = []
for (workload, warmUp) in zip(configuration.workloads, keelWarmUps) {
    log("\(workload.name): Keel and floors, alternating")
    results.append(
        workload.measure(
            repetitions: configuration.repetitions,
            keelWarmUp: warmUp.result,
            peakKilobytesSoFar: warmUp.peakKilobytes
        )
    )
}

for result in results { print(result.line) }
let document = report(
    results: results,
    repetitions: configuration.repetitions,
    keelPeakKilobytes: keelPeakKilobytes,
    peakKilobytes: PeakMemory.kilobytes
)
do {
    print(try document.jsonString(options: .prettyPrinted))
} catch {
    log("cannot write the report: \(error)")
    exit(1)
}
exit(results.allSatisfy(\.succeeded) ? 0 : 1)
