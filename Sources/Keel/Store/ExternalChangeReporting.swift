/// A backend that can tell when another process changed the records it reads, such as a
/// SQLite file that several processes share (`SQLiteSync` in `KeelSQLite`).
///
/// A ``Store`` over such a backend asks it for its ``externalChangeVersion()`` while a query
/// is kept loaded (``LiveQuery/keepLoaded()``), every ``Store/externalChangeInterval``;
/// when the version differs from the last one, the store invalidates its loaded records,
/// so the queries kept loaded read them again. Nothing is read again while the version
/// stays the same, and nothing is asked while no query is kept loaded.
///
/// ### Implementation requirements
///
/// - The version changes whenever another process, or another connection in this one,
///   commits a change the backend would read; it may change when nothing did, at the cost
///   of one needless reload.
/// - Changes made through the backend itself need not change it: the store already knows
///   of them.
/// - Asking is cheap (SQLite's `PRAGMA data_version` reads a counter in shared memory).
///
/// ```swift
/// struct SharedFileSync: ExternalChangeReporting {
///     let base: SQLiteSync
///     func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
///         try await base.perform(request)
///     }
///     func externalChangeVersion() async throws(SyncError) -> Int {
///         try await base.externalChangeVersion()
///     }
/// }
/// ```
public protocol ExternalChangeReporting: Sync {
    /// A number that changes when another process or connection commits a change.
    ///
    /// ```swift
    /// let before = try await backend.externalChangeVersion()
    /// ```
    ///
    /// - Returns: The current version; only its equality with earlier ones matters.
    /// - Throws: `SyncError` when the backend cannot tell.
    func externalChangeVersion() async throws(SyncError) -> Int
}
