public import Keel

/// Telling a `Store` when another process committed to the file.
extension SQLiteSync: ExternalChangeReporting {
    /// SQLite's `PRAGMA data_version` on the store's connection: a number that changes
    /// when another connection (in this process or another) commits to the file, and not
    /// when this store writes.
    ///
    /// A `Store` over this backend asks for it while a query is kept loaded, and reads the
    /// records again only when it changed. Asking reads a counter in the file's shared
    /// memory; it does not read the database.
    ///
    /// ```swift
    /// let before = try await store.externalChangeVersion()
    /// // another process saves a record
    /// try await store.externalChangeVersion() != before  // true
    /// ```
    ///
    /// - Returns: The connection's data version.
    /// - Throws: `SyncError.storage(_:)` when the store is closed or the file cannot be read.
    public func externalChangeVersion() async throws(SyncError) -> Int {
        do {
            return try await storeOperation { (connection) throws(SQLiteStoreError) in
                let rows = try connection.rows("PRAGMA data_version")
                return rows.first?.first.flatMap { $0.flatMap(Int.init) } ?? 0
            }
        } catch {
            throw .storage(error.description)
        }
    }
}
