import Keel
import Synchronization

/// Passes every request to the server's backend and remembers how the last one failed.
///
/// ``CachingSync`` keeps a change queued whether the server could not be reached or
/// answered with an error, and does not say which; `todos` reads it here to word its
/// notes ("cannot be reached" or "answered with an error").
final class FailureRecordingSync: Sync {
    /// The server's backend.
    let base: any Sync
    private let failure = Mutex<SyncError?>(nil)

    /// Wraps a backend.
    init(_ base: any Sync) {
        self.base = base
    }

    /// The error of the last request, or `nil` when it succeeded (or none was sent).
    var lastFailure: SyncError? {
        failure.withLock { $0 }
    }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        do {
            let response = try await base.perform(request)
            failure.withLock { $0 = nil }
            return response
        } catch {
            failure.withLock { $0 = error }
            throw error
        }
    }
}
