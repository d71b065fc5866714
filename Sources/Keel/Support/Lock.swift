#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A value guarded by a `pthread_mutex_t`, with the same `withLock` API as
/// `Synchronization.Mutex`.
///
/// Keel uses it instead of `Mutex` because the thread sanitizer does not see `Mutex` on
/// Linux (it is built on futexes that TSan does not intercept), so every access guarded by
/// a `Mutex` is reported as a race, and real races hide among the false ones. TSan does
/// intercept `pthread_mutex_lock`, so code guarded by a `Lock` is checked for real.
///
/// ```swift
/// let counter = Lock(0)
/// counter.withLock { $0 += 1 }
/// counter.withLock { $0 }  // 1
/// ```
package final class Lock<Value>: @unchecked Sendable {
    // The mutex must not move, so it lives in its own allocation.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // Not checked for exclusive access at run time (about 80 instructions a use): only the
    // thread that holds the mutex reaches it, and a body cannot lock it again to overlap.
    @exclusivity(unchecked) private var value: Value

    /// Creates a lock around `value`.
    ///
    /// ```swift
    /// let names = Lock<[String]>([])
    /// ```
    package init(_ value: sending Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let code = pthread_mutex_init(mutex, nil)
        precondition(code == 0, "pthread_mutex_init failed (\(code))")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value; other callers wait.
    ///
    /// ```swift
    /// let count = names.withLock { names in
    ///     names.append("Ann")
    ///     return names.count
    /// }
    /// ```
    ///
    /// - Parameter body: Reads or changes the value; it must not call `withLock` on the
    ///   same lock (the lock is not recursive).
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws; the lock is released either way.
    package func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// Runs `body` with exclusive access to the value if no other caller holds the lock;
    /// otherwise returns `nil` at once, without waiting.
    ///
    /// ```swift
    /// let count = names.withLockIfAvailable { $0.count }  // nil while another caller holds it
    /// ```
    ///
    /// - Parameter body: Reads or changes the value; it must not call `withLock` on the
    ///   same lock.
    /// - Returns: What `body` returns, or `nil` when the lock was held.
    /// - Throws: What `body` throws; the lock is released either way.
    package func withLockIfAvailable<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result? {
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
