import Dispatch
import Keel
import Testing

@testable import KeelSQLite

/// Keeps a store's queue busy with other work, its connection free, until released.
struct BusyQueue {
    private let semaphore = DispatchSemaphore(value: 0)
    private let releasedByGuard = Lock(false)

    init(of store: SQLiteSync) throws {
        let queue = try #require(store.queue)
        let semaphore = semaphore
        let releasedByGuard = releasedByGuard
        queue.async { semaphore.wait() }
        // Only so that an operation that waits for the queue fails instead of hanging. Long,
        // because in the whole suite's run a test's task can wait tens of seconds for a turn
        // of the saturated cooperative pool at each suspension (a `Task.yield()`, a sleep).
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Self.guardSeconds)) {
            releasedByGuard.withLock { $0 = true }
            semaphore.signal()
        }
    }

    /// How long the queue stays busy at most, and how long a test holds a connection at most.
    static let guardSeconds = 300

    /// Frees the queue; whether the guard had to free it first (an operation waited).
    func release() -> Bool {
        let waited = releasedByGuard.withLock { $0 }
        semaphore.signal()
        return waited
    }
}
