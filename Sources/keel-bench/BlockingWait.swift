import Dispatch
import Foundation
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

/// Runs `operation` on the main actor and keeps the main thread's run loop turning until it
/// ends: how a workload measures what an app's UI code pays (a detail screen opening, a save
/// from a button), including the hops back to the main actor.
///
/// Call it from keel-bench's main thread, which is the main actor's.
///
/// ```swift
/// let note = try onMainActor { try await store.find(Note.self, id: 7) }
/// ```
///
/// - Parameter operation: The work, isolated to the main actor.
/// - Returns: What `operation` returns.
/// - Throws: What `operation` throws.
func onMainActor<Output>(_ operation: @escaping @MainActor () async throws -> Output) throws -> Output {
    precondition(Thread.isMainThread, "onMainActor runs on keel-bench's main thread")
    let outcome = MainThreadOutcome<Output>()
    // The task, the loop below and `outcome` all run on the main thread.
    let work = Handoff(value: operation)
    Task { @MainActor in
        do { outcome.result = .success(try await work.value()) } catch { outcome.result = .failure(error) }
    }
    while outcome.result == nil { _ = RunLoop.main.run(mode: .default, before: .distantFuture) }
    return try outcome.result!.get()
}

/// Where ``onMainActor(_:)``'s task leaves its result for the loop that waits on the same
/// thread.
private final class MainThreadOutcome<Output>: @unchecked Sendable {
    var result: Result<Output, any Error>?
}

/// A value handed from one task to another that uses it only after the first is done with
/// it (a collection built in a task, kept alive until the clock stops), which the compiler
/// cannot prove.
struct Handoff<Value>: @unchecked Sendable {
    let value: Value
}
