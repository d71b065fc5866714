public import Keel
import Synchronization

extension SQLiteOfflineStore: ServerChangeStore {
    /// The stored cursor of a feed (see ``ServerChangeStore/cursor(for:)``).
    ///
    /// ```swift
    /// let since = try await local.cursor(for: "pull:/todos")
    /// ```
    ///
    /// - Parameter feed: The feed's name.
    /// - Returns: The cursor, or `nil`.
    /// - Throws: `SyncError.storage(_:)`.
    public func cursor(for feed: String) async throws(SyncError) -> String? {
        // A pull reads the cursor first: one row, read here when the connection is free.
        let read = { (tables: OfflineTables) throws(SQLiteStoreError) in try ServerChangeTables(tables: tables).cursor(for: feed) }
        if let cursor = readInPlace(read) { return cursor }
        return try await transaction(writes: false) { (tables) throws(SyncError) in
            try Self.storing { () throws(SQLiteStoreError) in try ServerChangeTables(tables: tables).cursor(for: feed) }
        }
    }

    /// Stores a batch of the server's changes and its cursor in one transaction (see
    /// ``ServerChangeStore/store(_:versionCheck:)``).
    ///
    /// The transaction is atomic but not synced to disk before it returns
    /// (`synchronous=NORMAL` for it alone): the server's changes can be read again, so a
    /// power loss may lose the batch, always together with its cursor, and the next pull
    /// or reconnect reads it again. A crash of the app loses nothing that was stored; the
    /// next durable write (a local change) makes the batch durable too. This saves the
    /// disk sync that takes about half of a small pull.
    ///
    /// ```swift
    /// let stored = try await local.store(batch, versionCheck: .none)
    /// ```
    ///
    /// - Parameters:
    ///   - batch: The changes and the cursor after them.
    ///   - versionCheck: Where a record's version for conflict detection is.
    /// - Returns: The changes stored and those held back.
    /// - Throws: `SyncError.storage(_:)`; nothing is stored then.
    /// - Complexity: O(*n*) for *n* changes; a complete batch also reads the stored records.
    public func store(_ batch: ChangeBatch, versionCheck: VersionCheck) async throws(SyncError) -> StoredChanges {
        try await transaction(writes: true, durable: false) { (tables) throws(SyncError) in
            try Self.storing { () throws(SQLiteStoreError) in
                try ServerChangeTables(tables: tables).store(batch, versionCheck: versionCheck)
            }
        }
    }
}

/// The server's changes on the offline tables, inside the caller's transaction: the
/// records, the last version stored per record (`offline_change_versions`, kept after a
/// deletion so a late change cannot bring the record back) and the cursors (`offline_cursors`).
struct ServerChangeTables {
    /// Called inside a batch's transaction after each change is written, with the number
    /// written so far. The kill tests' child reports the counts, so that its parent can kill
    /// it at a counted point in the middle of the transaction; `nil` otherwise.
    static let changeWritten = Mutex<(@Sendable (Int) -> Void)?>(nil)

    let tables: OfflineTables

    func cursor(for feed: String) throws(SQLiteStoreError) -> String? {
        try tables.connection.rows("SELECT cursor FROM offline_cursors WHERE feed = ?1", [.text(feed)]).first?.first ?? nil
    }

    func store(_ batch: ChangeBatch, versionCheck: VersionCheck) throws(SQLiteStoreError) -> StoredChanges {
        let collection = CachePath.normalized(batch.collection)
        var stored = StoredChanges(applied: [], heldBack: [])
        var named = Set<String>()
        let written = Self.changeWritten.withLock { $0 }
        // One read of the queue, and of the collection's row, for the whole batch.
        let queued = try queuedRecordIDs(in: collection)
        try tables.ensureCollection(collection)
        for change in batch.changes {
            let id = CachePath.key(change.id)
            named.insert(id)
            if queued.contains(id) {
                stored.heldBack.append(change)
                continue
            }
            guard try RecordVersion.isNewer(change.version, than: version(of: id, in: collection)) else { continue }
            try setVersion(change.version, of: id, in: collection)
            switch change.kind {
            case .deleted:
                guard try tables.record(id, in: collection, includingRemoved: true) != nil else { continue }
                try tables.deleteRow(id, in: collection)
            case .created, .updated:
                guard let attributes = change.attributes else { continue }
                let conflictVersion = CachingSync.version(of: attributes, headers: [:], check: versionCheck)
                try tables.put(attributes, id: id, in: collection, version: conflictVersion, ensuringCollection: false)
            }
            stored.applied.append(change)
            written?(stored.applied.count)
        }
        if batch.isComplete {
            for record in try tables.records(in: collection) {
                guard let id = record[tables.idAttribute], !id.isNull else { continue }
                let key = CachePath.key(id)
                guard !named.contains(key), !queued.contains(key) else { continue }
                try tables.deleteRow(key, in: collection)
                stored.applied.append(RemoteChange(.deleted, id: id))
            }
        }
        if let cursor = batch.cursor {
            try tables.connection.run(
                "INSERT INTO offline_cursors(feed, cursor) VALUES (?1, ?2) ON CONFLICT(feed) DO UPDATE SET cursor = excluded.cursor",
                [.text(batch.feed), .text(cursor)]
            )
        }
        return stored
    }

    /// The ids of the records of a collection with a queued change.
    private func queuedRecordIDs(in collection: String) throws(SQLiteStoreError) -> Set<String> {
        let rows = try tables.connection.rows(
            "SELECT DISTINCT record_id FROM offline_queue WHERE collection = ?1",
            [.text(collection)]
        )
        return Set(rows.compactMap { $0.first ?? nil })
    }

    private func version(of id: String, in collection: String) throws(SQLiteStoreError) -> String? {
        try tables.connection.rows(
            "SELECT version FROM offline_change_versions WHERE collection = ?1 AND id = ?2",
            [.text(collection), .text(id)]
        ).first?.first ?? nil
    }

    private func setVersion(_ version: String?, of id: String, in collection: String) throws(SQLiteStoreError) {
        guard let version else { return }
        try tables.connection.run(
            """
            INSERT INTO offline_change_versions(collection, id, version) VALUES (?1, ?2, ?3)
            ON CONFLICT(collection, id) DO UPDATE SET version = excluded.version
            """,
            [.text(collection), .text(id), .text(version)]
        )
    }
}
