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
}
