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
            let response = try respond(to: request, idAttribute: idAttribute).mapError(\.syncError).get()
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

    /// Answers a request inside the caller's transaction.
    ///
    /// A list that skipped damaged records says how many in
    /// ``SQLiteSync/damagedRecordsHeader``. A failure keeps the store's own error when there
    /// is one.
    func respond(to request: SyncRequest, idAttribute: String) -> Result<SyncResponse, SQLiteRequestFailure> {
        let context = SQLiteRecordsContext()
        var records = SQLiteRecords(connection: self, idAttribute: idAttribute, context: context)
        do {
            var response = try records.respond(to: request, idAttribute: idAttribute)
            if !context.skipped.isEmpty {
                response.headers[SQLiteSync.damagedRecordsHeader] = String(context.skipped.count)
            }
            return .success(response)
        } catch {
            return .failure(SQLiteRequestFailure(syncError: error, storeError: context.storeError))
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

    /// The readable records of a collection in insertion order, and the damaged ones.
    ///
    /// A record whose id attribute is missing or names another record gets the id it is
    /// stored under, so it can always be addressed.
    func records(in collection: String, idAttribute: String) throws(SQLiteStoreError)
        -> (records: [Attributes], damaged: [SQLiteDamagedRecord])
    {
        var list: [Attributes] = []
        var damaged: [SQLiteDamagedRecord] = []
        try query(
            "SELECT id, json FROM records WHERE collection = ?1 ORDER BY seq",
            [.text(collection)]
        ) { (row: SQLiteRow) throws(SQLiteStoreError) in
            switch decode(row, column: 1, collection: collection, id: row.text(at: 0) ?? "", idAttribute: idAttribute) {
            case .record(let record): list.append(record)
            case .damaged(let damage): damaged.append(damage)
            }
        }
        return (list, damaged)
    }

    /// One record; a damaged one throws ``SQLiteStoreError/damagedRecord(_:)``.
    func record(_ id: String, in collection: String, idAttribute: String) throws(SQLiteStoreError) -> Attributes? {
        var found: StoredRecord?
        try query(
            "SELECT json FROM records WHERE collection = ?1 AND id = ?2",
            [.text(collection), .text(id)]
        ) { (row: SQLiteRow) in
            found = decode(row, column: 0, collection: collection, id: id, idAttribute: idAttribute)
        }
        switch found {
        case .record(let record): return record
        case .damaged(let damage): throw .damagedRecord(damage)
        case nil: return nil
        }
    }

    /// Every damaged record of the store, collection by collection, in insertion order.
    func damagedRecords() throws(SQLiteStoreError) -> [SQLiteDamagedRecord] {
        var damaged: [SQLiteDamagedRecord] = []
        try query("SELECT collection, id, json FROM records ORDER BY collection, seq") { (row: SQLiteRow) in
            let decoded = decode(
                row,
                column: 2,
                collection: row.text(at: 0) ?? "",
                id: row.text(at: 1) ?? "",
                idAttribute: nil
            )
            if case .damaged(let damage) = decoded { damaged.append(damage) }
        }
        return damaged
    }

    /// The version of a record, or `nil` when there is none.
    func version(of id: String, in collection: String) throws(SQLiteStoreError) -> Int? {
        var version: Int?
        try query("SELECT version FROM records WHERE collection = ?1 AND id = ?2", [.text(collection), .text(id)]) {
            row in version = row.integer(at: 0)
        }
        return version
    }

    fileprivate func exists(_ id: String, in collection: String) throws(SQLiteStoreError) -> Bool {
        try version(of: id, in: collection) != nil
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

    /// Stores new attributes for an existing record, keeping its place; its version grows.
    func replace(_ record: Attributes, key: String, in collection: String) throws(SQLiteStoreError) {
        try run(
            "UPDATE records SET json = ?1, version = version + 1 WHERE collection = ?2 AND id = ?3",
            [try Self.encode(record), .text(collection), .text(key)]
        )
    }

    /// Removes a record, damaged or not.
    func delete(_ key: String, in collection: String) throws(SQLiteStoreError) {
        try run("DELETE FROM records WHERE collection = ?1 AND id = ?2", [.text(collection), .text(key)])
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

    /// Parses a stored record; text that is not a JSON object means the record was damaged.
    private func decode(
        _ row: SQLiteRow,
        column: Int32,
        collection: String,
        id: String,
        idAttribute: String?
    ) -> StoredRecord {
        func damage(_ reason: String) -> SQLiteDamagedRecord {
            SQLiteDamagedRecord(
                file: path,
                collection: collection,
                id: id,
                reason: reason,
                storedText: row.text(at: column) ?? ""
            )
        }
        let value: JSONValue
        do {
            value = try row.json(at: column)
        } catch {
            return .damaged(damage("not valid JSON (\(error))"))
        }
        guard var object = value.objectValue else { return .damaged(damage("not a JSON object")) }
        if let idAttribute, object[idAttribute].map(ResourcePath.segment(for:)) != id {
            object[idAttribute] = Self.idValue(forKey: id)
        }
        return .record(object)
    }

    /// The id attribute of the record stored under `key`: an integer when the key is one.
    static func idValue(forKey key: String) -> JSONValue {
        if let int = Int(key), String(int) == key { return .int(int) }
        return .string(key)
    }
}

/// A stored row: its record, or the damage that keeps it from being read.
enum StoredRecord {
    case record(Attributes)
    case damaged(SQLiteDamagedRecord)
}

/// Why a request failed inside a transaction: the `Sync` error, and the store's own error
/// when the store failed.
struct SQLiteRequestFailure: Error {
    let syncError: SyncError
    let storeError: SQLiteStoreError?
}

/// What a request's reads found beyond the records: the damaged records a list skipped,
/// and the store's error when it failed.
private final class SQLiteRecordsContext {
    var skipped: [SQLiteDamagedRecord] = []
    var storeError: SQLiteStoreError?
}

/// The `RecordStore` view of a connection inside a transaction.
private struct SQLiteRecords: RecordStore {
    let connection: SQLiteConnection
    let idAttribute: String
    let context: SQLiteRecordsContext

    func records(in collection: String) throws(SyncError) -> [Attributes]? {
        try storing { () throws(SQLiteStoreError) -> [Attributes]? in
            guard try connection.collectionExists(collection) else { return nil }
            let (records, damaged) = try connection.records(in: collection, idAttribute: idAttribute)
            context.skipped += damaged
            return records
        }
    }

    func record(_ id: String, in collection: String) throws(SyncError) -> Attributes? {
        try storing { () throws(SQLiteStoreError) in
            try connection.record(id, in: collection, idAttribute: idAttribute)
        }
    }

    func containsCollection(_ collection: String) throws(SyncError) -> Bool {
        try storing { () throws(SQLiteStoreError) in try connection.collectionExists(collection) }
    }

    func containsRecord(_ id: String, in collection: String) throws(SyncError) -> Bool {
        try storing { () throws(SQLiteStoreError) in try connection.exists(id, in: collection) }
    }

    func version(of id: String, in collection: String) throws(SyncError) -> Int? {
        try storing { () throws(SQLiteStoreError) in try connection.version(of: id, in: collection) }
    }

    func insert(_ record: Attributes, id: String, in collection: String) throws(SyncError) {
        try storing { () throws(SQLiteStoreError) in
            try connection.ensureCollection(collection)
            try connection.insert(record, key: id, in: collection)
        }
    }

    func replace(_ record: Attributes, id: String, in collection: String) throws(SyncError) {
        try storing { () throws(SQLiteStoreError) in try connection.replace(record, key: id, in: collection) }
    }

    func delete(_ id: String, in collection: String) throws(SyncError) {
        try storing { () throws(SQLiteStoreError) in try connection.delete(id, in: collection) }
    }

    func nextID(in collection: String) throws(SyncError) -> Int {
        try storing { () throws(SQLiteStoreError) in try connection.nextID(in: collection) ?? 1 }
    }

    func setNextID(_ id: Int, in collection: String) throws(SyncError) {
        try storing { () throws(SQLiteStoreError) in
            try connection.run(
                """
                INSERT INTO collections(path, next_id) VALUES (?1, ?2)
                ON CONFLICT(path) DO UPDATE SET next_id = excluded.next_id
                """,
                [.text(collection), .integer(id)]
            )
        }
    }

    /// Runs SQLite work, keeping the store's error for the caller and reporting it as the
    /// `Sync` API does.
    private func storing<T>(_ body: () throws(SQLiteStoreError) -> T) throws(SyncError) -> T {
        do {
            return try body()
        } catch {
            context.storeError = error
            throw SQLiteSync.syncError(error)
        }
    }
}
