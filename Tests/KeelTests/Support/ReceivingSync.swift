import Foundation
import Keel
import Synchronization

/// A backend that says it keeps a local copy: it records each ``ChangeBatch`` the store hands
/// it (and the cursor of the last one), answers with the batch's changes, and reads records
/// from an `InMemorySync` whose reads of the ids in `failing` fail with a 500.
final class ReceivingSync: ChangeReceiving {
    private let base = InMemorySync()
    private let failing: Set<Int>
    private let received = Mutex<[ChangeBatch]>([])

    init(failing: Set<Int> = []) {
        self.failing = failing
    }

    /// The batches received so far, in order.
    var batches: [ChangeBatch] { received.withLock { $0 } }

    var changeSource: any Sync { FailingReads(base: base, failing: failing) }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse { try await base.perform(request) }

    func cursor(for feed: String) async throws(SyncError) -> String? {
        received.withLock { $0.last { $0.feed == feed && $0.cursor != nil }?.cursor }
    }

    func receive(_ batch: ChangeBatch) async throws(SyncError) -> [RemoteChange] {
        received.withLock { $0.append(batch) }
        return batch.changes
    }
}

/// An `InMemorySync` whose reads of some record ids fail with a 500.
private struct FailingReads: Sync {
    let base: InMemorySync
    let failing: Set<Int>

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        if let id = Int(request.url.lastPathComponent), failing.contains(id) {
            throw .httpStatus(500, body: "unavailable")
        }
        return try await base.perform(request)
    }
}
