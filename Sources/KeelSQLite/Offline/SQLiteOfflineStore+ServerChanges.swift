public import Keel

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
        try await transaction(writes: false) { (tables) throws(SyncError) in
            try Self.storing { () throws(SQLiteStoreError) in try ServerChangeTables(tables: tables).cursor(for: feed) }
        }
    }

    /// Stores a batch of the server's changes and its cursor in one transaction (see
    /// ``ServerChangeStore/store(_:versionCheck:)``).
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
        try await transaction(writes: true) { (tables) throws(SyncError) in
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
    let tables: OfflineTables

    func cursor(for feed: String) throws(SQLiteStoreError) -> String? {
        try tables.connection.rows("SELECT cursor FROM offline_cursors WHERE feed = ?1", [.text(feed)]).first?.first ?? nil
    }

    func store(_ batch: ChangeBatch, versionCheck: VersionCheck) throws(SQLiteStoreError) -> StoredChanges {
        let collection = CachePath.normalized(batch.collection)
        var stored = StoredChanges(applied: [], heldBack: [])
        var named = Set<String>()
        for change in batch.changes {
            let id = CachePath.key(change.id)
            named.insert(id)
            if try !tables.queue(collection: collection, recordID: id).isEmpty {
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
                try tables.put(attributes, id: id, in: collection, version: conflictVersion)
            }
            stored.applied.append(change)
        }
        if batch.isComplete {
            for record in try tables.records(in: collection) {
                guard let id = record[tables.idAttribute], !id.isNull else { continue }
                let key = CachePath.key(id)
                guard !named.contains(key), try tables.queue(collection: collection, recordID: key).isEmpty else { continue }
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
