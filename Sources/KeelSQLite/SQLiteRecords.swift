import Keel

/// What one request learned beyond its answer: the damaged records a list skipped, the
/// store's error when it failed, and what its reads and writes already know, so that the
/// REST semantics ask SQLite each question once.
///
/// It lives for one request inside one transaction, while no other connection can change
/// what it remembers.
///
/// Its properties are not checked for exclusive access at run time (about 85 instructions a
/// check): one request on one thread uses it, and no access to one of them is under way
/// while another starts.
final class SQLiteRecordsContext {
    @exclusivity(unchecked) var skipped: [SQLiteDamagedRecord] = []
    @exclusivity(unchecked) var storeError: SQLiteStoreError?
    /// The last record whose version this request read or wrote (`nil`: there is none).
    @exclusivity(unchecked) var knownVersion: (collection: String, id: String, version: Int?)?
    /// The state of the collection this request last read or wrote, while it holds.
    @exclusivity(unchecked) var knownState: (collection: String, state: SQLiteCollectionState)?
    /// The next id given to `setNextID`, stored with the record inserted next.
    @exclusivity(unchecked) var pendingNextID: (collection: String, id: Int)?
    /// Collection states known without a query, by collection: those the connection's
    /// earlier creates and deletes left, while nothing else committed (``SQLiteNextIDMemo``).
    @exclusivity(unchecked) var rememberedStates = SQLiteCollectionStates()
    /// The collection state that the last insert, or delete of a record other than the
    /// tail, left.
    @exclusivity(unchecked) var storedState: (collection: String, state: SQLiteCollectionState)?
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

    /// What an update keeps: the id attribute alone when the record's text is plain enough
    /// to check without parsing it (``SQLiteConnection/keptID(_:in:idAttribute:)``), else
    /// the whole record.
    func recordForReplacing(_ id: String, in collection: String, idAttribute: String) throws(SyncError)
        -> Attributes?
    {
        let read = try storing { () throws(SQLiteStoreError) in
            try connection.keptID(id, in: collection, idAttribute: idAttribute)
        }
        switch read {
        case .unchecked:
            return try record(id, in: collection)
        case .absent:
            context.knownVersion = (collection, id, nil)
            return nil
        case .found(let value, let version):
            context.knownVersion = (collection, id, version)
            // As a read of the whole record answers it: the id it is stored under when the
            // attribute is missing or names another record.
            if let value, StoredRecordID.text(id).isValue(value) { return [idAttribute: value] }
            return [idAttribute: SQLiteConnection.idValue(forKey: id)]
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
            var next: Int?
            if let pending = context.pendingNextID, pending.collection == collection {
                next = pending.id
                context.pendingNextID = nil
            }
            let state = try writableState(of: collection)
            context.knownVersion = nil
            let after = try connection.insert(record, id: id, into: state, nextID: next ?? state.nextID)
            context.knownState = (collection, after)
            context.knownVersion = (collection, id, 1)
            context.storedState = (collection, after)
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
        try storing { () throws(SQLiteStoreError) in _ = try deleteKeepingState(id, in: collection) }
    }

    /// Removes the record with one `DELETE` (and the tail's keep), whose count of changed
    /// rows says whether it was there, instead of reading its version first.
    func deleteIfPresent(_ id: String, in collection: String) throws(SyncError) -> Bool {
        try storing { () throws(SQLiteStoreError) in try deleteKeepingState(id, in: collection) }
    }

    /// Removes a record, and returns whether there was one.
    ///
    /// The collection's state (from this request, the connection's memo or a query) tells
    /// whether the record is the tail: only a delete of the tail moves what it carries to
    /// the collection's row and changes the state. Any other delete leaves the state as it
    /// was, so the state is known after it (``SQLiteRecordsContext/storedState``, which the
    /// connection remembers), and the next delete needs neither the query nor the tail's
    /// keep.
    private func deleteKeepingState(_ id: String, in collection: String) throws(SQLiteStoreError) -> Bool {
        context.knownVersion = nil
        let state = try state(of: collection)
        context.knownState = nil
        context.storedState = nil
        let deleted = try connection.delete(id, in: collection, state: state)
        if let state, state.leavesState(deleting: id) {
            context.knownState = (collection, state)
            context.storedState = (collection, state)
        }
        context.knownVersion = (collection, id, nil)
        return deleted
    }

    /// The collection's next id; when the record under it is free, known without a query
    /// (its rowid is past the tail), the id-free check that follows is answered too.
    func nextID(in collection: String) throws(SyncError) -> Int {
        if let pending = context.pendingNextID, pending.collection == collection { return pending.id }
        return try storing { () throws(SQLiteStoreError) in
            guard let state = try state(of: collection) else {
                context.knownVersion = (collection, "1", nil)
                return 1
            }
            if state.isFree(state.nextID) {
                context.knownVersion = (collection, URLPath.decimalText(state.nextID), nil)
            }
            return state.nextID
        }
    }

    /// Remembers the next id; the record inserted next stores it (see
    /// ``SQLiteCollectionState``), and ``storePendingNextID()`` stores one that no insert
    /// took.
    func setNextID(_ id: Int, in collection: String) throws(SyncError) {
        try storePendingNextID()
        context.pendingNextID = (collection, id)
    }

    /// Stores a next id that ``setNextID(_:in:)`` gave and no insert took, in the
    /// collection's row.
    func storePendingNextID() throws(SyncError) {
        guard let pending = context.pendingNextID else { return }
        try storing { () throws(SQLiteStoreError) in
            var state = try writableState(of: pending.collection)
            try connection.keepInCollection(number: state.number, nextID: pending.id, seq: state.seq)
            state.nextID = max(state.nextID, pending.id)
            context.knownState = (pending.collection, state)
            context.pendingNextID = nil
        }
    }

    /// The collection's state, from this request, the connection's memo or a query; `nil`
    /// when the collection has no row.
    private func state(of collection: String) throws(SQLiteStoreError) -> SQLiteCollectionState? {
        if let known = context.knownState, known.collection == collection { return known.state }
        var found = context.rememberedStates[collection]
        if found == nil { found = try connection.collectionState(collection) }
        guard let state = found else { return nil }
        context.knownState = (collection, state)
        return state
    }

    /// The collection's state, its row created when it has none.
    private func writableState(of collection: String) throws(SQLiteStoreError) -> SQLiteCollectionState {
        if let state = try state(of: collection) { return state }
        let state = try connection.createCollection(collection)
        context.knownState = (collection, state)
        return state
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
