import Dispatch
import Keel
import Testing

@testable import KeelSQLite

/// An operation on a store's queue that holds its connection until released.
struct HeldConnection {
    private let semaphore = DispatchSemaphore(value: 0)

    /// Returns once the operation holds the connection; it lets go after ``release()`` or
    /// after the guard's time (``BusyQueue/guardSeconds``), so that a test cannot hang.
    init(of store: SQLiteSync) throws {
        let queue = try #require(store.queue)
        let holding = DispatchSemaphore(value: 0)
        let semaphore = semaphore
        queue.async {
            store.connection.withLock { _ in
                holding.signal()
                _ = semaphore.wait(timeout: .now() + .seconds(BusyQueue.guardSeconds))
            }
        }
        holding.wait()
    }

    /// Lets the operation give the connection back.
    func release() {
        semaphore.signal()
    }
}
