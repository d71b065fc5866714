/// A backend that keeps a local copy of the server's records and takes the server's changes
/// into it, such as `CachingSync` in `KeelSQLite`.
///
/// A ``Store`` over such a backend hands it every pulled or pushed ``ChangeBatch`` before
/// it touches a live model: the backend stores the changes and the batch's cursor in one
/// transaction, lets its conflict policy decide for records with a change queued locally,
/// and answers with the changes the live models should show. A backend that is not
/// `ChangeReceiving` (a `RESTSync`, an `InMemorySync`) has no local copy: the store keeps
/// the cursor in memory and applies every change.
///
/// ### Implementation requirements
///
/// - Store the changes and the cursor atomically: after a crash, either both or neither.
/// - Skip a change whose version is not newer than the stored record's (a repeated or late
///   change), and leave it out of the answer.
/// - Never drop a change made locally that the server has not seen without the conflict
///   policy's say; a change the live models must not show is left out of the answer.
/// - For a complete batch, delete the stored records it does not name that have no
///   queued change, and answer with a deletion for each.
///
/// ```swift
/// struct LoggingCache: ChangeReceiving {
///     let base: any ChangeReceiving
///     var changeSource: any Sync { base.changeSource }
///     func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse { try await base.perform(request) }
///     func cursor(for feed: String) async throws(SyncError) -> String? { try await base.cursor(for: feed) }
///     func receive(_ batch: ChangeBatch) async throws(SyncError) -> [RemoteChange] {
///         print(batch.changes.count, "changes for", batch.collection)
///         return try await base.receive(batch)
///     }
/// }
/// ```
public protocol ChangeReceiving: Sync {
    /// The backend changes are read from: the server's, under the local copy.
    ///
    /// ```swift
    /// cache.changeSource  // the RESTSync under the cache
    /// ```
    var changeSource: any Sync { get }

    /// The stored cursor of a feed.
    ///
    /// ```swift
    /// let since = try await cache.cursor(for: "pull:/todos")
    /// ```
    ///
    /// - Parameter feed: The feed's name, such as `pull:/todos`.
    /// - Returns: The cursor, or `nil` when none is stored.
    /// - Throws: `SyncError.storage(_:)` when the local copy cannot be read.
    func cursor(for feed: String) async throws(SyncError) -> String?

    /// Stores a batch of the server's changes and its cursor in the local copy.
    ///
    /// ```swift
    /// let shown = try await cache.receive(batch)
    /// ```
    ///
    /// - Parameter batch: The changes and the cursor after them.
    /// - Returns: The changes the live models should show: the applied ones, the deletions
    ///   a complete batch implies, and what the conflict policy chose for records with a
    ///   queued change.
    /// - Throws: `SyncError.storage(_:)`; nothing is stored then.
    func receive(_ batch: ChangeBatch) async throws(SyncError) -> [RemoteChange]
}
