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
        try storing { () throws(SQLiteStoreError) in try begin(immediate: writes) }
        let context = SQLiteRecordsContext()
        if request.method == .create { context.rememberedNextIDs = nextIDMemo.nextIDs(atDataVersion: dataVersion()) }
        do {
            let response = try respond(to: request, idAttribute: idAttribute, context: context)
                .mapError(\.syncError).get()
            try storing { () throws(SQLiteStoreError) in
                if writes {
                    beforeCommit?(request)
                    try commit()
                } else {
                    try rollback()
                }
            }
            if writes { rememberNextID(after: request, idAttribute: idAttribute, context: context) }
            return response
        } catch {
            if isInTransaction { try? rollback() }
            if writes { nextIDMemo.forget() }
            throw error
        }
    }

    /// Keeps the next id that a committed create without an id stored, and forgets every
    /// next id after any other write (see ``SQLiteNextIDMemo``).
    private func rememberNextID(after request: SyncRequest, idAttribute: String, context: SQLiteRecordsContext) {
        let id = request.body?[idAttribute]
        if request.method == .create, id == nil || id == .null, let stored = context.storedNextID {
            nextIDMemo.remember(stored.id, in: stored.collection, atDataVersion: dataVersion())
        } else {
            nextIDMemo.forget()
        }
    }

    /// Runs several requests in one `BEGIN IMMEDIATE … COMMIT` transaction, each link's id
    /// written into its request's body first; any failure rolls all of them back.
    func perform(
        _ requests: [SyncRequest],
        links: [RequestLink],
        idAttribute: String,
        beforeCommit: (@Sendable (SyncRequest) -> Void)?
    ) throws(SyncError) -> [SyncResponse] {
        try storing { () throws(SQLiteStoreError) in try begin(immediate: true) }
        do throws(SyncError) {
            var responses: [SyncResponse] = []
            for (index, request) in requests.enumerated() {
                var request = request
                for link in links where link.request == index {
                    let id = responses[link.source].body?[idAttribute] ?? .null
                    request.body = (request.body ?? [:]).setting(id, at: link.keyPath)
                }
                responses.append(try respond(to: request, idAttribute: idAttribute).mapError(\.syncError).get())
            }
            try storing { () throws(SQLiteStoreError) in
                for request in requests where request.method != .read { beforeCommit?(request) }
                try commit()
            }
            return responses
        } catch {
            if isInTransaction { try? rollback() }
            throw error
        }
    }

    /// Answers a request inside the caller's transaction.
    ///
    /// A list that skipped damaged records says how many in
    /// ``SQLiteSync/damagedRecordsHeader``. A failure keeps the store's own error when there
    /// is one.
    func respond(
        to request: SyncRequest,
        idAttribute: String,
        context: SQLiteRecordsContext = SQLiteRecordsContext()
    ) -> Result<SyncResponse, SQLiteRequestFailure> {
        var records = SQLiteRecords(connection: self, idAttribute: idAttribute, context: context)
        do {
            var response = try records.respond(to: request, idAttribute: idAttribute)
            try records.storePendingNextID()
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
        try query(.recordsInCollection, [.text(collection)]) { (row: SQLiteRow) throws(SQLiteStoreError) in
            switch decode(row, column: 1, collection: collection, id: row.text(at: 0) ?? "", idAttribute: idAttribute) {
            case .record(let record): list.append(record)
            case .damaged(let damage): damaged.append(damage)
            }
        }
        return (list, damaged)
    }

    /// One record; a damaged one throws ``SQLiteStoreError/damagedRecord(_:)``.
    func record(_ id: String, in collection: String, idAttribute: String) throws(SQLiteStoreError) -> Attributes? {
        try versionedRecord(id, in: collection, idAttribute: idAttribute)?.record
    }

    /// One record and its version, read together; a damaged one throws
    /// ``SQLiteStoreError/damagedRecord(_:)``.
    func versionedRecord(_ id: String, in collection: String, idAttribute: String) throws(SQLiteStoreError)
        -> (record: Attributes, version: Int)?
    {
        var found: (StoredRecord, Int)?
        try query(.versionedRecord, [.text(collection), .text(id)]) { (row: SQLiteRow) in
            found = (
                decode(row, column: 0, collection: collection, id: id, idAttribute: idAttribute), row.integer(at: 1)
            )
        }
        switch found {
        case (.record(let record), let version)?: return (record, version)
        case (.damaged(let damage), _)?: throw .damagedRecord(damage)
        case nil: return nil
        }
    }

    /// Every damaged record of the store, collection by collection, in insertion order.
    func damagedRecords() throws(SQLiteStoreError) -> [SQLiteDamagedRecord] {
        var damaged: [SQLiteDamagedRecord] = []
        try query(.allRecords) { (row: SQLiteRow) in
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
        try query(.version, [.text(collection), .text(id)]) { row in version = row.integer(at: 0) }
        return version
    }

    /// Appends a record at the end of its collection, at version 1, with the collection's
    /// next id as it stands after this insert (see ``nextID(in:)``).
    func insert(_ record: Attributes, key: String, in collection: String, nextID: Int) throws(SQLiteStoreError) {
        try run(.insert, [.text(collection), .text(key), try Self.encode(record), .integer(nextID)])
    }

    /// Stores new attributes for an existing record, keeping its place; its version grows.
    func replace(_ record: Attributes, key: String, in collection: String) throws(SQLiteStoreError) {
        try run(.replace, [try Self.encode(record), .text(collection), .text(key)])
    }

    /// Removes a record, damaged or not.
    ///
    /// The collection's next id, which its newest record carries, moves to the collection's
    /// row first, so that no id is given again once the record is gone.
    func delete(_ key: String, in collection: String) throws(SQLiteStoreError) {
        try run(.keepNextID, [.text(collection)])
        try run(.delete, [.text(collection), .text(key)])
    }

    /// Whether the collection has its row, that is, ever held a record.
    func collectionExists(_ collection: String) throws(SQLiteStoreError) -> Bool {
        try nextID(in: collection).exists
    }

    /// The id the next record created without an id may get, whether the collection has
    /// its row, and the version of the record under that id if there is one (a create asks
    /// next whether the id is free).
    ///
    /// Since schema 3 each create stores the next id with its record instead of updating
    /// the collection's row (one page less per commit): the next id is the larger of the
    /// row's value and that of the collection's newest record (the values only grow, and
    /// ``delete(_:in:)`` moves the value to the row before it removes a record).
    func nextID(in collection: String) throws(SQLiteStoreError) -> (next: Int, exists: Bool, version: Int?) {
        var state: (next: Int, exists: Bool, version: Int?) = (1, false, nil)
        try query(.nextID, [.text(collection)]) { row in
            state = (row.integer(at: 0), row.integer(at: 1) != 0, row.optionalInteger(at: 2))
        }
        return state
    }

    /// Stores a collection's next id in its row, creating the row when needed.
    func setNextID(_ id: Int, in collection: String) throws(SQLiteStoreError) {
        try run(.setNextID, [.text(collection), .integer(id)])
    }

    /// Creates the collection's row when it has none.
    func ensureCollection(_ collection: String) throws(SQLiteStoreError) {
        try run(.ensureCollection, [.text(collection)])
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
        if let idAttribute, object[idAttribute].map({ Self.value($0, isKey: id) }) != true {
            object[idAttribute] = Self.idValue(forKey: id)
        }
        return .record(object)
    }

    /// Whether an id attribute's text as a path segment (``ResourcePath/segment(for:)``) is
    /// `key`; an integer is compared digit by digit, without making its text.
    static func value(_ value: JSONValue, isKey key: String) -> Bool {
        guard case .int(let int) = value else { return ResourcePath.segment(for: value) == key }
        var key = key
        return key.withUTF8 { bytes in
            var magnitude = int.magnitude
            var index = bytes.count
            repeat {
                index -= 1
                guard index >= 0, bytes[index] == UInt8(ascii: "0") + UInt8(magnitude % 10) else { return false }
                magnitude /= 10
            } while magnitude > 0
            if int < 0 {
                index -= 1
                guard index >= 0, bytes[index] == UInt8(ascii: "-") else { return false }
            }
            return index == 0
        }
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
