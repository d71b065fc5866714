#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The peak resident set size of this process so far (`ru_maxrss`).
enum PeakMemory {
    /// The high-water mark in KiB, or 0 when the system does not report it.
    static var kilobytes: Int {
        var usage = rusage()
        #if canImport(Glibc)
            // Glibc declares `RUSAGE_SELF` in an enum that Swift imports as its own type.
            let who = __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
            let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return 0 }
        #if canImport(Darwin)
            return Int(usage.ru_maxrss) / 1024  // bytes on Darwin
        #else
            return Int(usage.ru_maxrss)  // KiB on Linux
        #endif
    }

    /// Gives the memory the allocator holds free back to the system (glibc's `malloc_trim`).
    ///
    /// So that the heap one workload freed does not stay resident under the next one's: the
    /// peak then counts what each workload holds, as Node's isolated processes do for
    /// Backbone. Without it, the 160 MB that `construct` frees stayed resident while
    /// `sync_fetch`'s and the store's threads made arenas of their own, and the peak grew by
    /// about 20 MiB that no workload held. Does nothing where glibc is not the allocator.
    static func releaseFreeMemory() {
        #if canImport(Glibc)
            // Glibc's Swift module does not import malloc.h, which declares it.
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
            typealias Trim = @convention(c) (Int) -> Int32
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        #endif
    }
}
