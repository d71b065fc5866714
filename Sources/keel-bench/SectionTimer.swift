#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The wall-clock and process CPU time of one timed section.
///
/// On a machine shared with other work, wall time counts the time the process waited for
/// a core; the process CPU time (every thread's, `CLOCK_PROCESS_CPUTIME_ID`) counts only
/// the work done, so it compares two sides run minutes apart under a changing load.
struct Elapsed {
    var wall: Duration
    var cpu: Duration
}

/// Measures an ``Elapsed`` from its start to ``stop()``.
struct SectionTimer {
    private let wallStart = ContinuousClock.now
    private let cpuStart = SectionTimer.processCPUTime()

    /// The time since the timer was made.
    func stop() -> Elapsed {
        let cpu = Self.processCPUTime() - cpuStart
        return Elapsed(wall: ContinuousClock.now - wallStart, cpu: cpu)
    }

    /// Times `body`.
    static func measure(_ body: () throws -> Void) rethrows -> Elapsed {
        let timer = SectionTimer()
        try body()
        return timer.stop()
    }

    /// The CPU time all threads of the process have used so far.
    private static func processCPUTime() -> Duration {
        var time = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time) == 0 else { return .zero }
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}
