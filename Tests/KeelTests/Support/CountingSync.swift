import Keel
import Synchronization

/// A `Sync` that counts the requests passing through it to a base backend and keeps the last
/// one: "without a second request" is `count` unchanged.
final class CountingSync: Sync {
    let base: any Sync
    private let state = Mutex<(count: Int, last: SyncRequest?)>((0, nil))

    init(_ base: any Sync) { self.base = base }

    var count: Int { state.withLock { $0.count } }
    var lastRequest: SyncRequest? { state.withLock { $0.last } }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        state.withLock {
            $0.count += 1
            $0.last = request
        }
        return try await base.perform(request)
    }
}
