import Synchronization

/// How many profiled regions have begun.
///
/// It and ``isInProfiledRegion`` are side effects, so that the optimizer keeps the calls
/// that mark a region. The two functions do different work, or the compiler would merge
/// them into one symbol, and the profiler could not tell the start from the end.
private let profiledRegionCount = Atomic<Int>(0)
/// Whether a profiled region has begun and not ended.
private let isInProfiledRegion = Atomic<Bool>(false)

/// Marks the start of a region whose instructions `Benchmarks/profile.sh` counts on every
/// thread: callgrind zeroes its counters when this is called (`--zero-before`).
///
/// `timedRegion` counts the thread that runs it (callgrind's `--toggle-collect` follows one
/// thread); a region whose work hops to other threads (a task, a store's queue) is marked
/// with this and ``profiledRegionEnd()`` instead.
///
/// ```swift
/// profiledRegionStart()
/// try await query.load()
/// profiledRegionEnd()
/// ```
@inline(never)
func profiledRegionStart() {
    profiledRegionCount.add(1, ordering: .relaxed)
    isInProfiledRegion.store(true, ordering: .relaxed)
}

/// Marks the end of a region that ``profiledRegionStart()`` began: callgrind writes what
/// every thread ran since then (`--dump-before`).
@inline(never)
func profiledRegionEnd() {
    isInProfiledRegion.store(false, ordering: .relaxed)
}
