import Foundation
public import Keel

extension SQLiteOfflineStore {
    /// Finishes a sent change in one transaction (see
    /// ``OfflineStore/complete(_:serverRecord:foreignKeys:)``).
    ///
    /// A change that is no longer queued (another process sent it first) changes nothing.
    /// The later changes that mention a replaced temporary id are found through an index the
    /// queue keeps (`offline_mentions`), so the cost follows the mentions, not the length of
    /// the queue.
    ///
    /// ```swift
    /// let rewritten = try await local.complete(change, serverRecord: RemoteRecord(attributes: ["id": 7], version: nil), foreignKeys: [])
    /// ```
    ///
    /// - Parameters:
    ///   - change: The sent change.
    ///   - serverRecord: The server's record, or `nil`.
    ///   - foreignKeys: Not needed here: every mention is found without declarations.
    /// - Returns: The records, other than the created one, that now hold the server's id.
    /// - Throws: `SyncError.storage(_:)`.
    public func complete(_ change: QueuedChange, serverRecord: RemoteRecord?, foreignKeys: [ForeignKey])
        async throws(SyncError) -> [RewrittenRecord]
    {
        try await transaction(writes: true) { (tables) throws(SyncError) in
            try Self.storing { () throws(SQLiteStoreError) -> [RewrittenRecord] in
                guard try tables.contains(change) else { return [] }
                try tables.dequeue(change)
                return try IDRewriter(tables: tables).finish(change, serverRecord: serverRecord)
            }
        }
    }

    /// Drops a change unsent; the local record becomes the server's (see
    /// ``OfflineStore/discard(_:serverRecord:)``).
    ///
    /// Discarding a create also drops the later changes of its record, which cannot be
    /// sent without it.
    ///
    /// ```swift
    /// try await local.discard(change, serverRecord: nil)
    /// ```
    ///
    /// - Parameters:
    ///   - change: The queued change.
    ///   - serverRecord: The server's record, or `nil` to remove the local one.
    /// - Throws: `SyncError.storage(_:)`.
    public func discard(_ change: QueuedChange, serverRecord: RemoteRecord?) async throws(SyncError) {
        try await transaction(writes: true) { (tables) throws(SyncError) in
            try Self.storing { () throws(SQLiteStoreError) in
                guard try tables.contains(change) else { return }
                if change.method == .create {
                    try tables.connection.run(
                        "DELETE FROM offline_queue WHERE collection = ?1 AND record_id = ?2",
                        [.text(change.collection), .text(change.recordID)]
                    )
                } else {
                    try tables.dequeue(change)
                }
                let others = try tables.queue(collection: change.collection, recordID: change.recordID)
                guard others.isEmpty else { return }
                if let serverRecord {
                    try tables.put(
                        serverRecord.attributes,
                        id: change.recordID,
                        in: change.collection,
                        version: serverRecord.version
                    )
                } else {
                    try tables.deleteRow(change.recordID, in: change.collection)
                }
            }
        }
    }
}

/// Stores the server's answer to a sent change and, for a create answered with a new id,
/// replaces the temporary id everywhere in the file.
struct IDRewriter {
    let tables: OfflineTables

    func finish(_ change: QueuedChange, serverRecord: RemoteRecord?) throws(SQLiteStoreError) -> [RewrittenRecord] {
        let collection = change.collection
        var recordID = change.recordID
        var rewritten: [RewrittenRecord] = []
        if change.method == .create, let serverID = serverRecord?.attributes[tables.idAttribute], !serverID.isNull,
            CachePath.key(serverID) != change.recordID
        {
            recordID = CachePath.key(serverID)
            try rename(change.recordID, to: recordID, serverID: serverID, in: collection)
            rewritten = try rewriteMentions(of: change.recordID, as: serverID)
        }
        let remaining = try tables.queue(collection: collection, recordID: recordID)
        if change.method == .delete {
            if remaining.isEmpty { try tables.deleteRow(recordID, in: collection) }
            return rewritten
        }
        guard let serverRecord else { return rewritten }
        if remaining.isEmpty {
            try tables.put(serverRecord.attributes, id: recordID, in: collection, version: serverRecord.version)
        } else {
            try tables.connection.run(
                "UPDATE offline_records SET version = NULLIF(?1, '') WHERE collection = ?2 AND id = ?3",
                [.text(serverRecord.version ?? ""), .text(collection), .text(recordID)]
            )
            try tables.rebase(collection: collection, recordID: recordID, version: serverRecord.version)
        }
        return rewritten
    }

    /// Moves the record to its server id and remembers the mapping.
    private func rename(_ temporaryID: String, to key: String, serverID: JSONValue, in collection: String)
        throws(SQLiteStoreError)
    {
        try tables.deleteRow(key, in: collection)
        try tables.connection.run(
            "UPDATE offline_records SET id = ?1 WHERE collection = ?2 AND id = ?3",
            [.text(key), .text(collection), .text(temporaryID)]
        )
        if var record = try tables.record(key, in: collection, includingRemoved: true) {
            record[tables.idAttribute] = serverID
            try tables.connection.run(
                "UPDATE offline_records SET json = ?1 WHERE collection = ?2 AND id = ?3",
                [try tables.encode(.object(record)), .text(collection), .text(key)]
            )
        }
        try tables.connection.run(
            "INSERT OR REPLACE INTO offline_ids(collection, temporary_id, server_id) VALUES (?1, ?2, ?3)",
            [.text(collection), .text(temporaryID), try tables.encode(serverID)]
        )
    }

    /// Replaces a temporary id in the later queued changes that mention it (found through
    /// `offline_mentions`, so the cost follows the mentions, not the length of the queue)
    /// and in the records they wrote, which move when their collection path held it
    /// (`/users/local-1/invites` becomes `/users/7/invites`).
    ///
    /// Returns the records other than the renamed one whose attributes changed, under the
    /// collection path and id live models have.
    private func rewriteMentions(of temporaryID: String, as serverID: JSONValue)
        throws(SQLiteStoreError) -> [RewrittenRecord]
    {
        var rewritten: [RewrittenRecord] = []
        var moved: Set<RecordKey> = []
        for change in try tables.queue(mentioning: temporaryID) {
            let updated = TemporaryIDRewrite.replacing(temporaryID, with: serverID, in: change)
            let record = RecordKey(collection: change.collection, id: change.recordID)
            if change.recordID != temporaryID, moved.insert(record).inserted,
                let changed = try rewriteRecord(
                    record,
                    to: RecordKey(collection: updated.collection, id: updated.recordID),
                    temporaryID,
                    serverID
                )
            {
                rewritten.append(RewrittenRecord(collection: record.collection, id: record.id, attributes: changed))
            }
            try tables.connection.run(
                "UPDATE offline_queue SET collection = ?1, record_id = ?2, url = ?3, body = NULLIF(?4, '') WHERE seq = ?5",
                [
                    .text(updated.collection), .text(updated.recordID), .text(updated.url.absoluteString),
                    try updated.body.map { (body) throws(SQLiteStoreError) in try tables.encode(body) } ?? .text(""),
                    .integer(updated.sequence),
                ]
            )
        }
        try tables.forgetMentions(of: temporaryID)
        return rewritten
    }

    /// Replaces the temporary id in one stored record and moves it to `target`; returns its
    /// attributes when they changed.
    private func rewriteRecord(_ record: RecordKey, to target: RecordKey, _ temporaryID: String, _ serverID: JSONValue)
        throws(SQLiteStoreError) -> Attributes?
    {
        guard let attributes = try tables.record(record.id, in: record.collection, includingRemoved: true) else {
            return nil
        }
        let updated =
            TemporaryIDRewrite.replacing(temporaryID, with: serverID, in: .object(attributes)).objectValue
            ?? attributes
        if target != record {
            try tables.ensureCollection(target.collection)
            try tables.deleteRow(target.id, in: target.collection)
            try tables.connection.run(
                "UPDATE offline_records SET collection = ?1, id = ?2 WHERE collection = ?3 AND id = ?4",
                [.text(target.collection), .text(target.id), .text(record.collection), .text(record.id)]
            )
        }
        guard updated != attributes else { return nil }
        try tables.connection.run(
            "UPDATE offline_records SET json = ?1 WHERE collection = ?2 AND id = ?3",
            [try tables.encode(.object(updated)), .text(target.collection), .text(target.id)]
        )
        return updated
    }
}
