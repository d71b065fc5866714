import Synchronization

/// One implementation of a workload: an untimed setup, a timed body and an untimed
/// verification, run together on fresh state.
struct Trial {
    private let execute: (_ counted: Bool) throws -> Sample

    /// Creates a trial whose whole body is timed.
    ///
    /// Whatever `body` returns stays alive until the clock has stopped, so that freeing the
    /// objects a workload creates is not part of its time.
    ///
    /// - Parameters:
    ///   - setup: Builds fresh state.
    ///   - body: The timed work.
    ///   - verify: Checks the state afterwards and returns the check value.
    init<State, Output>(
        setup: @escaping () throws -> State,
        body: @escaping (State) throws -> Output,
        verify: @escaping (State) throws -> Int
    ) {
        self.init(
            setup: setup,
            timing: { state, stopwatch in _ = try stopwatch.measure { try body(state) } },
            verify: verify
        )
    }

    /// Creates a trial whose body starts and stops the clock itself, for a workload that
    /// times only part of its work (`coll_sort` times its sorts, not its shuffles).
    ///
    /// - Parameters:
    ///   - setup: Builds fresh state.
    ///   - body: The work; it runs the parts that count inside ``Stopwatch/measure(_:)``.
    ///   - verify: Checks the state afterwards and returns the check value.
    init<State>(
        setup: @escaping () throws -> State,
        timing body: @escaping (State, inout Stopwatch) throws -> Void,
        verify: @escaping (State) throws -> Int
    ) {
        execute = { counted in
            let state = try setup()
            var stopwatch = Stopwatch(counted: counted)
            try body(state, &stopwatch)
            return Sample(elapsed: stopwatch.elapsed, cpu: stopwatch.cpu, check: try verify(state))
        }
    }

    /// Sets up fresh state, runs the body and verifies the result.
    ///
    /// The state is freed when this returns, outside the timed region.
    ///
    /// - Parameter counted: `false` runs the body outside ``timedRegion(_:)``, so that a
    ///   profiler counting only that function does not see it (a warm-up run).
    func run(counted: Bool = true) throws -> Sample {
        try execute(counted)
    }
}

/// What one run of a trial measured.
struct Sample {
    /// The time spent in the timed region.
    let elapsed: Duration
    /// The process CPU time (every thread's) used in the timed region.
    let cpu: Duration
    /// The value the verification returned.
    let check: Int
}

/// Adds up the time spent in measured regions, on the monotonic `ContinuousClock`, and the
/// process CPU time used in them (``SectionTimer``).
struct Stopwatch {
    /// Whether the measured regions run inside ``timedRegion(_:)``, where a profiler counts them.
    let counted: Bool
    /// The total time measured so far.
    private(set) var elapsed: Duration = .zero
    /// The process CPU time used in the measured regions so far.
    private(set) var cpu: Duration = .zero

    /// Runs `body` on the clock and returns its result, which the caller frees after the
    /// clock has stopped.
    mutating func measure<Output>(_ body: () throws -> Output) rethrows -> Output {
        let timer = SectionTimer()
        let output = try counted ? timedRegion(body) : body()
        let section = timer.stop()
        elapsed += section.wall
        cpu += section.cpu
        return output
    }
}

/// Runs a timed region: a function of its own, so that a profiler can count only what runs
/// inside (`Benchmarks/profile.sh` passes `--toggle-collect='*timedRegion*'` to callgrind).
///
/// Counting its runs is a side effect no other function has: without one, the compiler may
/// merge a specialization with an identical function of another name (it did for
/// `coll_add`'s floor), which the profiler then does not recognise.
@inline(never)
func timedRegion<Output>(_ body: () throws -> Output) rethrows -> Output {
    timedRegionCount.add(1, ordering: .relaxed)
    return try body()
}

/// How many timed regions have run: ``timedRegion(_:)``'s side effect.
private let timedRegionCount = Atomic<Int>(0)
