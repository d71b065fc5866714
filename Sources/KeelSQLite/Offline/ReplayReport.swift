public import Keel

/// What a ``CachingSync/replay()`` did: the changes it sent, those the server rejected,
/// the conflicts, and how the affected records stand now.
///
/// Hand it to `IdentityMap/apply(_:)` to bring live models up to date (server ids,
/// rewritten foreign keys, sync states).
///
/// ```swift
/// let report = try await cache.replay()
/// map.apply(report)
/// print("\(report.sent.count) sent, \(report.remaining) still queued")
/// ```
public struct ReplayReport: Sendable, Hashable {
    /// A change the server accepted, with its answer.
    public struct Sent: Sendable, Hashable {
        /// The change as it was sent.
        public let change: QueuedChange
        /// The server's response.
        public let response: SyncResponse
    }

    /// A change the server rejected.
    public struct Failure: Sendable, Hashable {
        /// The change.
        public let change: QueuedChange
        /// The server's error.
        public let error: SyncError
    }

    /// A record the replay changed, as live models should now show it.
    public struct RecordUpdate: Sendable, Hashable {
        /// The collection path.
        public let collection: String
        /// The id live models have (a temporary id for a record created offline).
        public let id: String
        /// The attributes to set (including a server id replacing a temporary one), or
        /// `nil` to leave them.
        public let attributes: Attributes?
        /// The record's state now.
        public let state: SyncState
    }

    /// The changes the server accepted, in order.
    public internal(set) var sent: [Sent] = []
    /// The changes the server rejected; they stay queued as failed.
    public internal(set) var failures: [Failure] = []
    /// The conflicts left for a person; they stay queued.
    public internal(set) var conflicts: [SyncConflict] = []
    /// The conflicts a policy settled.
    public internal(set) var resolved: [SyncConflict] = []
    /// The records whose attributes or state changed, one update each, under the
    /// collection path and id live models have.
    public internal(set) var records: [RecordUpdate] = []
    /// How many changes are still queued, whatever their state.
    public internal(set) var remaining = 0
    /// Why sending stopped early (the remote could not be reached), or `nil` when every
    /// sendable change was sent.
    public internal(set) var stoppedBy: SyncError?

    /// How many of ``sent`` went in one Atomic Operations request
    /// (``CachingSync/Configuration/atomicOperations``); 0 when none did.
    ///
    /// ```swift
    /// report.sentAtomically  // 3: one request carried three changes
    /// ```
    public internal(set) var sentAtomically = 0
    /// The endpoint's answer when the server does not offer Atomic Operations (404, 405, 406
    /// or 415, before anything was applied): the changes then went one request each.
    ///
    /// ```swift
    /// if let refusal = report.atomicFallback { print("no atomic endpoint: \(refusal)") }
    /// ```
    public internal(set) var atomicFallback: SyncError?

    /// An empty report.
    ///
    /// ```swift
    /// ReplayReport().sent.isEmpty  // true
    /// ```
    public init() {}
}
