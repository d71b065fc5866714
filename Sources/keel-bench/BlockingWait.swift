import Dispatch
import Keel

/// Runs `operation` in a task and blocks the calling thread until it ends, so that a
/// workload whose work is asynchronous fits the synchronous ``Trial`` protocol.
///
/// The calling thread is keel-bench's main thread, which is not one of the cooperative pool's,
/// so blocking it cannot starve the task it waits for.
///
/// ```swift
/// let count = try waitFor { try await fetchAll() }
/// ```
///
/// - Parameter operation: The asynchronous work.
/// - Returns: What `operation` returns.
/// - Throws: What `operation` throws.
func waitFor<Output: Sendable>(_ operation: @escaping @Sendable () async throws -> Output) throws -> Output {
    let result = Lock<Result<Output, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let outcome: Result<Output, any Error>
        do { outcome = .success(try await operation()) } catch { outcome = .failure(error) }
        result.withLock { $0 = outcome }
        done.signal()
    }
    done.wait()
    return try result.withLock { $0 }!.get()
}
