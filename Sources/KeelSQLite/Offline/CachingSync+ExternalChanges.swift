public import Keel

/// Telling a `Store` when another process committed to the local copy's file.
extension CachingSync: ExternalChangeReporting {
    /// The local copy's ``SQLiteOfflineStore/externalChangeVersion()``: a number that
    /// changes when another connection (in this process or another) commits to the file,
    /// such as a second `todos` process that queues a change; `0`, which never changes,
    /// when the local store is not a `SQLiteOfflineStore` file.
    ///
    /// A `Store` over this backend (`Store.offline(baseURL:fileURL:)`)
    /// asks for it while a query is kept loaded and loads the query again, by its read
    /// policy, only when it changed.
    ///
    /// ```swift
    /// let before = try await cache.externalChangeVersion()
    /// // another process queues a change in the same file
    /// try await cache.externalChangeVersion() != before  // true
    /// ```
    ///
    /// - Returns: The local connection's data version.
    /// - Throws: `SyncError.storage(_:)` when the local store is closed.
    public func externalChangeVersion() async throws(SyncError) -> Int {
        guard let file = local as? SQLiteOfflineStore else { return 0 }
        return try await file.externalChangeVersion()
    }
}

extension SQLiteOfflineStore {
    /// SQLite's `PRAGMA data_version` on the store's connection: a number that changes when
    /// another connection commits to the file, and not when this store writes.
    ///
    /// Asking reads a counter in the file's shared memory; it does not read the records.
    ///
    /// ```swift
    /// let before = try await local.externalChangeVersion()
    /// ```
    ///
    /// - Returns: The connection's data version.
    /// - Throws: `SyncError.storage(_:)` when the store is closed.
    public func externalChangeVersion() async throws(SyncError) -> Int {
        try await transaction(writes: false) { (tables) throws(SyncError) in
            let rows = try Self.storing { () throws(SQLiteStoreError) in try tables.connection.rows("PRAGMA data_version") }
            return rows.first?.first.flatMap { $0.flatMap(Int.init) } ?? 0
        }
    }
}
