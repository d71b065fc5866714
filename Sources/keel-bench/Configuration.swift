import Foundation

/// The settings of one run, read from the environment as `Benchmarks/compare.sh` passes them.
struct Configuration {
    /// How many timed repetitions each trial gets (`REPS`, default 1); the median is reported.
    let repetitions: Int
    /// The workloads to run (`WORKLOADS=a,b`, default all), in specification order.
    let workloads: [Workload]
    /// Whether to run each Keel trial once, without warm-up or floor, for a profiler
    /// (`PROFILE=1`).
    let profiling: Bool
    /// Whether a profiling run first runs each trial once outside the counted region
    /// (`PROFILE_WARMUP=1`), so that one-time costs (the runtime's metadata, first conformance
    /// lookups, caches filled once) stay out of the counts.
    let profilingWarmUp: Bool
    /// Which trial a profiling run runs (`PROFILE_SIDE=keel`, `floor` or `same-work`; default
    /// `keel`).
    let profiledSide: ProfiledSide

    /// The trials a profiling run can run.
    enum ProfiledSide: String {
        case keel
        case floor
        case sameWork = "same-work"
    }

    /// Reads `REPS`, `WORKLOADS`, `PROFILE`, `PROFILE_WARMUP` and `PROFILE_SIDE` from
    /// `environment`.
    ///
    /// - Throws: ``UsageError`` for a `REPS` that is not a positive integer, an unknown
    ///   workload name or side.
    init(environment: [String: String], available: [Workload]) throws(UsageError) {
        let reps = environment["REPS"] ?? "1"
        guard let repetitions = Int(reps), repetitions >= 1 else {
            throw UsageError(description: "REPS must be a positive integer, not \"\(reps)\"")
        }
        self.repetitions = repetitions
        profiling = environment["PROFILE"] == "1"
        profilingWarmUp = environment["PROFILE_WARMUP"] == "1"
        let side = environment["PROFILE_SIDE"] ?? "keel"
        guard let profiledSide = ProfiledSide(rawValue: side) else {
            throw UsageError(description: "PROFILE_SIDE must be keel, floor or same-work, not \"\(side)\"")
        }
        self.profiledSide = profiledSide

        guard let list = environment["WORKLOADS"], !list.isEmpty else {
            workloads = available
            return
        }
        let names = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let known = available.map(\.name)
        let unknown = names.filter { !known.contains($0) }
        guard unknown.isEmpty else {
            throw UsageError(
                description: "unknown workload(s): \(unknown.joined(separator: ", ")); "
                    + "known: \(known.joined(separator: ", "))"
            )
        }
        workloads = available.filter { names.contains($0.name) }
    }
}

/// A setting in the environment that keel-bench cannot use.
struct UsageError: Error, CustomStringConvertible {
    let description: String
}
