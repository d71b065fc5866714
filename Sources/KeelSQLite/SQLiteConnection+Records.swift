import Foundation
import Keel

/// The records of ``SQLiteSync``, one transaction per operation; the REST semantics are
/// Keel's `RecordStore.respond(to:idAttribute:)`, shared with `InMemorySync`.
extension SQLiteConnection {
    /// Runs one request in its own transaction: `BEGIN IMMEDIATE … COMMIT` for writes, so a
    /// failure (or a crash) leaves nothing half-written.
    func perform(
        _ request: SyncRequest,
        idAttribute: String,
        beforeCommit: (@Sendable (SyncRequest) -> Void)?
    ) throws(SyncError) -> SyncResponse {
        let writes = request.method != .read
        // IMMEDIATE takes the write lock up front, so two writers never deadlock upgrading
        // read transactions; a read uses a plain transaction for one consistent snapshot.
        try storing { () throws(SQLiteStoreError) in try execute(writes ? "BEGIN IMMEDIATE" : "BEGIN") }
        do {
            var records = SQLiteRecords(connection: self)
            let response = try records.respond(to: request, idAttribute: idAttribute)
            try storing { () throws(SQLiteStoreError) in
                if writes {
                    beforeCommit?(request)
                    try execute("COMMIT")
                } else {
                    try execute("ROLLBACK")
                }
            }
            return response
        } catch {
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Runs SQLite work, reporting its failure as the `Sync` API does.
    fileprivate func storing<T>(_ body: () throws(SQLiteStoreError) -> T) throws(SyncError) -> T {
        do {
            return try body()
        } catch {
            throw SQLiteSync.syncError(error)
        }
    }

    // MARK: - Rows

    /// The records of a collection, in insertion order.
    func records(in collection: String) throws(SQLiteStoreError) -> [Attributes] {
        var list: [Attributes] = []
        try query(
            "SELECT id, json FROM records WHERE collection = ?1 ORDER BY seq",
            [.text(collection)]
        ) { (row: SQLiteRow) throws(SQLiteStoreError) in
            list.append(try decode(row, column: 1, collection: collection, id: row.text(at: 0) ?? ""))
        }
        return list
    }

    fileprivate func record(_ id: String, in collection: String) throws(SQLiteStoreError) -> Attributes? {
        var found: Attributes?
        try query(
            "SELECT json FROM records WHERE collection = ?1 AND id = ?2",
            [.text(collection), .text(id)]
        ) { (row: SQLiteRow) throws(SQLiteStoreError) in
            found = try decode(row, column: 0, collection: collection, id: id)
        }
        return found
    }

    fileprivate func exists(_ id: String, in collection: String) throws(SQLiteStoreError) -> Bool {
        var found = false
        try query("SELECT 1 FROM records WHERE collection = ?1 AND id = ?2", [.text(collection), .text(id)]) { _ in
            found = true
        }
        return found
    }

    fileprivate func insert(_ record: Attributes, key: String, in collection: String) throws(SQLiteStoreError) {
        try run(
            """
            INSERT INTO records(collection, id, seq, json)
            VALUES (?1, ?2, (SELECT COALESCE(MAX(seq), 0) + 1 FROM records WHERE collection = ?1), ?3)
            """,
            [.text(collection), .text(key), try Self.encode(record)]
        )
    }

    fileprivate func collectionExists(_ collection: String) throws(SQLiteStoreError) -> Bool {
        try nextID(in: collection) != nil
    }

    fileprivate func nextID(in collection: String) throws(SQLiteStoreError) -> Int? {
        var next: Int?
        try query("SELECT next_id FROM collections WHERE path = ?1", [.text(collection)]) { row in
            next = row.integer(at: 0)
        }
        return next
    }

    fileprivate func ensureCollection(_ collection: String) throws(SQLiteStoreError) {
        try run("INSERT OR IGNORE INTO collections(path) VALUES (?1)", [.text(collection)])
    }

    // MARK: - JSON

    /// The record as stored JSON text; a record too deep to write is refused unwritten.
    fileprivate static func encode(_ record: Attributes) throws(SQLiteStoreError) -> SQLiteValue {
        do {
            return .utf8(try record.jsonData())
        } catch {
            throw .unencodableRecord(error)
        }
    }

    /// Parses a stored record; text that is not a JSON object means the file was damaged.
    private func decode(_ row: SQLiteRow, column: Int32, collection: String, id: String) throws(SQLiteStoreError)
        -> Attributes
    {
        let value: JSONValue
        do {
            value = try row.json(at: column)
        } catch {
            throw .corrupt(path: path, message: "the record \(collection)/\(id) is not valid JSON (\(error))")
        }
        guard let object = value.objectValue else {
            throw .corrupt(path: path, message: "the record \(collection)/\(id) is not a JSON object")
        }
        return object
    }
}

/// The `RecordStore` view of a connection inside a transaction.
private struct SQLiteRecords: RecordStore {
    let connection: SQLiteConnection

    func records(in collection: String) throws(SyncError) -> [Attributes]? {
        try connection.storing { () throws(SQLiteStoreError) in
            try connection.collectionExists(collection) ? try connection.records(in: collection) : nil
        }
    }

    func record(_ id: String, in collection: String) throws(SyncError) -> Attributes? {
        try connection.storing { () throws(SQLiteStoreError) in try connection.record(id, in: collection) }
    }

    func containsCollection(_ collection: String) throws(SyncError) -> Bool {
        try connection.storing { () throws(SQLiteStoreError) in try connection.collectionExists(collection) }
    }

    func containsRecord(_ id: String, in collection: String) throws(SyncError) -> Bool {
        try connection.storing { () throws(SQLiteStoreError) in try connection.exists(id, in: collection) }
    }

    func insert(_ record: Attributes, id: String, in collection: String) throws(SyncError) {
        try connection.storing { () throws(SQLiteStoreError) in
            try connection.ensureCollection(collection)
            try connection.insert(record, key: id, in: collection)
        }
    }

    func replace(_ record: Attributes, id: String, in collection: String) throws(SyncError) {
        try connection.storing { () throws(SQLiteStoreError) in
            try connection.run(
                "UPDATE records SET json = ?1 WHERE collection = ?2 AND id = ?3",
                [try SQLiteConnection.encode(record), .text(collection), .text(id)]
            )
        }
    }

    func delete(_ id: String, in collection: String) throws(SyncError) {
        try connection.storing { () throws(SQLiteStoreError) in
            try connection.run("DELETE FROM records WHERE collection = ?1 AND id = ?2", [.text(collection), .text(id)])
        }
    }

    func nextID(in collection: String) throws(SyncError) -> Int {
        try connection.storing { () throws(SQLiteStoreError) in try connection.nextID(in: collection) ?? 1 }
    }

    func setNextID(_ id: Int, in collection: String) throws(SyncError) {
        try connection.storing { () throws(SQLiteStoreError) in
            try connection.run(
                """
                INSERT INTO collections(path, next_id) VALUES (?1, ?2)
                ON CONFLICT(path) DO UPDATE SET next_id = excluded.next_id
                """,
                [.text(collection), .integer(id)]
            )
        }
    }
}
