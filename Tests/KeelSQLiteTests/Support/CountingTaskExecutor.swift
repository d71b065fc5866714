import Dispatch
import Synchronization

/// A task executor that counts the jobs it is given: a task that prefers it is enqueued
/// here when it starts and again each time it resumes after suspending, so a test can tell
/// whether an `await` suspended.
///
/// ```swift
/// let executor = CountingTaskExecutor()
/// let resumptions = await Task(executorPreference: executor) {
///     let before = executor.jobCount
///     _ = try? await store.perform(request)
///     return executor.jobCount - before
/// }.value
/// ```
final class CountingTaskExecutor: TaskExecutor, Sendable {
    private let queue = DispatchQueue(label: "CountingTaskExecutor")
    private let jobs = Mutex(0)

    /// How many jobs have been enqueued so far.
    var jobCount: Int { jobs.withLock { $0 } }

    func enqueue(_ job: consuming ExecutorJob) {
        jobs.withLock { $0 += 1 }
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
