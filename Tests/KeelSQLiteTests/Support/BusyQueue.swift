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
        // Only so that an operation that waits for the queue fails instead of hanging.
        DispatchQueue.global().asyncAfter(deadline: .now() + 30) {
            releasedByGuard.withLock { $0 = true }
            semaphore.signal()
        }
    }

    /// Frees the queue; whether the 30-second guard had to free it first (an operation waited).
    func release() -> Bool {
        let waited = releasedByGuard.withLock { $0 }
        semaphore.signal()
        return waited
    }
}
