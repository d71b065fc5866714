import Foundation
public import Keel

extension SQLiteOfflineStore {
    /// Finishes a sent change in one transaction (see
    /// ``OfflineStore/complete(_:serverRecord:foreignKeys:)``).
    ///
    /// A change that is no longer queued (another process sent it first) changes nothing.
    ///
    /// ```swift
    /// let rewritten = try await local.complete(change, serverRecord: RemoteRecord(attributes: ["id": 7], version: nil), foreignKeys: [])
    /// ```
    ///
    /// - Parameters:
    ///   - change: The sent change.
    ///   - serverRecord: The server's record, or `nil`.
    ///   - foreignKeys: The declared foreign keys.
    /// - Returns: The records whose foreign keys now hold the server's id.
    /// - Throws: `SyncError.storage(_:)`.
    public func complete(_ change: QueuedChange, serverRecord: RemoteRecord?, foreignKeys: [ForeignKey])
        async throws(SyncError) -> [RewrittenRecord]
    {
        try await transaction(writes: true) { (tables) throws(SyncError) in
            try Self.storing { () throws(SQLiteStoreError) -> [RewrittenRecord] in
                guard try tables.contains(change) else { return [] }
                try tables.dequeue(change)
                return try IDRewriter(tables: tables).finish(
                    change,
                    serverRecord: serverRecord,
                    foreignKeys: foreignKeys
                )
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

    func finish(_ change: QueuedChange, serverRecord: RemoteRecord?, foreignKeys: [ForeignKey])
        throws(SQLiteStoreError) -> [RewrittenRecord]
    {
        let collection = change.collection
        var recordID = change.recordID
        var rewritten: [RewrittenRecord] = []
        if change.method == .create, let serverID = serverRecord?.attributes[tables.idAttribute], !serverID.isNull,
            CachePath.key(serverID) != change.recordID
        {
            recordID = CachePath.key(serverID)
            try rename(change.recordID, to: recordID, serverID: serverID, in: collection)
            for key in foreignKeys where key.references == collection {
                rewritten += try rewriteForeignKey(key, from: change.recordID, to: serverID)
            }
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

    /// Moves the record to its server id and points its later queued changes there.
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
        for later in try tables.queue(collection: collection, recordID: temporaryID) {
            var body = later.body
            if var object = body?.objectValue, object[tables.idAttribute] == .string(temporaryID) {
                object[tables.idAttribute] = serverID
                body = .object(object)
            }
            try updateQueued(
                later,
                recordID: key,
                url: Self.replacing(temporaryID, with: key, in: later.url),
                body: body
            )
        }
    }

    /// Replaces a temporary id in one foreign key of stored records and queued bodies.
    private func rewriteForeignKey(_ key: ForeignKey, from temporaryID: String, to serverID: JSONValue)
        throws(SQLiteStoreError) -> [RewrittenRecord]
    {
        var rewritten: [RewrittenRecord] = []
        var matches: [(String, Attributes)] = []
        try tables.connection.query(
            "SELECT id, json FROM offline_records WHERE collection = ?1",
            [.text(key.collection)]
        ) { (row: SQLiteRow) throws(SQLiteStoreError) in
            let record = try tables.decodeObject(row.text(at: 1), what: "a record of \(key.collection)")
            if record[key.attribute] == .string(temporaryID) { matches.append((row.text(at: 0) ?? "", record)) }
        }
        for (id, record) in matches {
            var updated = record
            updated[key.attribute] = serverID
            try tables.connection.run(
                "UPDATE offline_records SET json = ?1 WHERE collection = ?2 AND id = ?3",
                [try tables.encode(.object(updated)), .text(key.collection), .text(id)]
            )
            rewritten.append(RewrittenRecord(collection: key.collection, id: id, attributes: updated))
        }
        let queued = try tables.queue().filter { $0.collection == key.collection }
        for change in queued {
            guard var body = change.body?.objectValue, body[key.attribute] == .string(temporaryID) else { continue }
            body[key.attribute] = serverID
            try updateQueued(change, recordID: change.recordID, url: change.url, body: .object(body))
        }
        return rewritten
    }

    private func updateQueued(_ change: QueuedChange, recordID: String, url: URL, body: JSONValue?)
        throws(SQLiteStoreError)
    {
        try tables.connection.run(
            "UPDATE offline_queue SET record_id = ?1, url = ?2, body = NULLIF(?3, '') WHERE seq = ?4",
            [
                .text(recordID), .text(url.absoluteString),
                try body.map { (body) throws(SQLiteStoreError) in try tables.encode(body) } ?? .text(""),
                .integer(change.sequence),
            ]
        )
    }

    /// The URL with each path segment equal to `temporaryID` replaced by `key`.
    static func replacing(_ temporaryID: String, with key: String, in url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        let segments = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false)
        let encodedKey = key.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? key
        components.percentEncodedPath = segments.map { $0 == temporaryID ? encodedKey : String($0) }
            .joined(separator: "/")
        return components.url ?? url
    }
}
