public import Keel

/// An ``OfflineStore`` that also takes the server's pulled and pushed changes, with the
/// cursor of the feed they came from, in one transaction: what ``CachingSync`` needs to be
/// `ChangeReceiving`. ``SQLiteOfflineStore`` is one.
///
/// ```swift
/// let stored = try await local.store(batch, versionCheck: .attribute("updated_at"))
/// stored.heldBack  // changes to records with a queued local change, left for the conflict policy
/// ```
public protocol ServerChangeStore: OfflineStore {
    /// The stored cursor of a feed.
    ///
    /// - Parameter feed: The feed's name, such as `pull:/todos`.
    /// - Returns: The cursor, or `nil`.
    /// - Throws: `SyncError.storage(_:)`.
    func cursor(for feed: String) async throws(SyncError) -> String?

    /// Stores a batch and its cursor in one transaction.
    ///
    /// A change to a record with a queued change is not stored but held back (the local
    /// change stays); a change whose version is not newer than the last one stored for its
    /// record is skipped, deletions included, across restarts; a complete batch deletes the
    /// records it does not name that have no queued change.
    ///
    /// - Parameters:
    ///   - batch: The changes and the cursor after them.
    ///   - versionCheck: Where a stored record's version for conflict detection is.
    /// - Returns: The changes stored and those held back.
    /// - Throws: `SyncError.storage(_:)`; nothing is stored then.
    func store(_ batch: ChangeBatch, versionCheck: VersionCheck) async throws(SyncError) -> StoredChanges
}

/// What ``ServerChangeStore/store(_:versionCheck:)`` did with a batch.
///
/// ```swift
/// let stored = StoredChanges(applied: [RemoteChange(.deleted, id: 7)], heldBack: [])
/// ```
public struct StoredChanges: Sendable, Hashable {
    /// The changes stored, in order, with a deletion for each record a complete batch removed.
    public var applied: [RemoteChange]
    /// The changes to records with a queued local change, which were not stored.
    public var heldBack: [RemoteChange]

    /// Describes the outcome of storing a batch.
    ///
    /// ```swift
    /// let nothing = StoredChanges(applied: [], heldBack: [])
    /// ```
    ///
    /// - Parameters:
    ///   - applied: The stored changes.
    ///   - heldBack: The changes not stored for a queued local change.
    public init(applied: [RemoteChange], heldBack: [RemoteChange]) {
        self.applied = applied
        self.heldBack = heldBack
    }
}
