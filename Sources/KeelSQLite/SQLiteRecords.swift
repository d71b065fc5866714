import Keel

/// What one request learned beyond its answer: the damaged records a list skipped, the
/// store's error when it failed, and what its reads and writes already know, so that the
/// REST semantics ask SQLite each question once.
///
/// It lives for one request inside one transaction, while no other connection can change
/// what it remembers.
final class SQLiteRecordsContext {
    var skipped: [SQLiteDamagedRecord] = []
    var storeError: SQLiteStoreError?
    /// The last record whose version this request read or wrote (`nil`: there is none).
    var knownVersion: (collection: String, id: String, version: Int?)?
    /// A collection known to have its row in `collections`.
    var knownCollection: String?
    /// The next id given to `setNextID`, stored with the record inserted next.
    var pendingNextID: (collection: String, id: Int)?
    /// Next ids known without a query, by collection: those the connection's earlier
    /// creates left, while nothing else committed (``SQLiteNextIDMemo``).
    var rememberedNextIDs: [String: Int] = [:]
    /// The next id that the last insert stored with its record.
    var storedNextID: (collection: String, id: Int)?
}

/// The `RecordStore` view of a connection inside a transaction.
struct SQLiteRecords: RecordStore {
    let connection: SQLiteConnection
    let idAttribute: String
    let context: SQLiteRecordsContext

    func records(in collection: String) throws(SyncError) -> [Attributes]? {
        try storing { () throws(SQLiteStoreError) -> [Attributes]? in
            let (records, damaged) = try connection.records(in: collection, idAttribute: idAttribute)
            // A collection with rows has its row in `collections`; only an empty one asks.
            if records.isEmpty, damaged.isEmpty, try !connection.collectionExists(collection) { return nil }
            context.skipped += damaged
            return records
        }
    }

    func record(_ id: String, in collection: String) throws(SyncError) -> Attributes? {
        try storing { () throws(SQLiteStoreError) in
            let found = try connection.versionedRecord(id, in: collection, idAttribute: idAttribute)
            context.knownVersion = (collection, id, found?.version)
            return found?.record
        }
    }

    func containsCollection(_ collection: String) throws(SyncError) -> Bool {
        try storing { () throws(SQLiteStoreError) in try connection.collectionExists(collection) }
    }

    func containsRecord(_ id: String, in collection: String) throws(SyncError) -> Bool {
        try version(of: id, in: collection) != nil
    }

    func version(of id: String, in collection: String) throws(SyncError) -> Int? {
        if let known = context.knownVersion, known.id == id, known.collection == collection { return known.version }
        return try storing { () throws(SQLiteStoreError) in
            let version = try connection.version(of: id, in: collection)
            context.knownVersion = (collection, id, version)
            return version
        }
    }

    func insert(_ record: Attributes, id: String, in collection: String) throws(SyncError) {
        try storing { () throws(SQLiteStoreError) in
            let next: Int
            if let pending = context.pendingNextID, pending.collection == collection {
                next = pending.id
                context.pendingNextID = nil
            } else {
                next = try readNextID(in: collection)
            }
            if context.knownCollection != collection {
                try connection.ensureCollection(collection)
                context.knownCollection = collection
            }
            context.knownVersion = nil
            try connection.insert(record, key: id, in: collection, nextID: next)
            context.knownVersion = (collection, id, 1)
            context.storedNextID = (collection, next)
        }
    }

    func replace(_ record: Attributes, id: String, in collection: String) throws(SyncError) {
        try storing { () throws(SQLiteStoreError) in
            let known = context.knownVersion
            context.knownVersion = nil
            try connection.replace(record, key: id, in: collection)
            if let known, known.id == id, known.collection == collection, let version = known.version {
                context.knownVersion = (collection, id, version + 1)
            }
        }
    }

    func delete(_ id: String, in collection: String) throws(SyncError) {
        try storing { () throws(SQLiteStoreError) in
            context.knownVersion = nil
            try connection.delete(id, in: collection)
            context.knownVersion = (collection, id, nil)
        }
    }

    func nextID(in collection: String) throws(SyncError) -> Int {
        if let pending = context.pendingNextID, pending.collection == collection { return pending.id }
        // A remembered next id was stored with a record of the collection, which therefore
        // has its row; whether the record under the id is free is still asked.
        if let remembered = context.rememberedNextIDs[collection] {
            context.knownCollection = collection
            return remembered
        }
        return try storing { () throws(SQLiteStoreError) in try readNextID(in: collection) }
    }

    /// Remembers the next id; the record inserted next stores it (see
    /// ``SQLiteConnection/nextID(in:)``), and ``storePendingNextID()`` stores one that no
    /// insert took.
    func setNextID(_ id: Int, in collection: String) throws(SyncError) {
        try storePendingNextID()
        context.pendingNextID = (collection, id)
    }

    /// Stores a next id that ``setNextID(_:in:)`` gave and no insert took, in the
    /// collection's row.
    func storePendingNextID() throws(SyncError) {
        guard let pending = context.pendingNextID else { return }
        try storing { () throws(SQLiteStoreError) in
            try connection.setNextID(pending.id, in: pending.collection)
            context.pendingNextID = nil
            context.knownCollection = pending.collection
        }
    }

    /// The collection's next id, noting whether the collection has its row and the version
    /// of the record under that id (a create asks next whether it is free).
    private func readNextID(in collection: String) throws(SQLiteStoreError) -> Int {
        let (next, exists, version) = try connection.nextID(in: collection)
        if exists { context.knownCollection = collection }
        context.knownVersion = (collection, String(next), version)
        return next
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
