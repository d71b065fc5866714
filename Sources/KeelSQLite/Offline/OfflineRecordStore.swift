import Keel

/// The `RecordStore` view of the local copy inside a transaction.
///
/// Local reads and writes answer with Keel's REST semantics
/// (`RecordStore.respond(to:idAttribute:)`); a delete leaves a tombstone until it reaches
/// the server.
struct OfflineRecordStore: RecordStore {
    let tables: OfflineTables

    func records(in collection: String) throws(SyncError) -> [Attributes]? {
        try SQLiteOfflineStore.storing { () throws(SQLiteStoreError) in
            try tables.collectionExists(collection) ? try tables.records(in: collection) : nil
        }
    }

    func record(_ id: String, in collection: String) throws(SyncError) -> Attributes? {
        try SQLiteOfflineStore.storing { () throws(SQLiteStoreError) in try tables.record(id, in: collection) }
    }

    func containsCollection(_ collection: String) throws(SyncError) -> Bool {
        try SQLiteOfflineStore.storing { () throws(SQLiteStoreError) in try tables.collectionExists(collection) }
    }

    func insert(_ record: Attributes, id: String, in collection: String) throws(SyncError) {
        try SQLiteOfflineStore.storing { () throws(SQLiteStoreError) in
            try tables.put(record, id: id, in: collection, version: nil)
        }
    }

    func replace(_ record: Attributes, id: String, in collection: String) throws(SyncError) {
        try SQLiteOfflineStore.storing { () throws(SQLiteStoreError) in
            try tables.replace(record, id: id, in: collection)
        }
    }

    func delete(_ id: String, in collection: String) throws(SyncError) {
        try SQLiteOfflineStore.storing { () throws(SQLiteStoreError) in try tables.markRemoved(id, in: collection) }
    }

    func nextID(in collection: String) throws(SyncError) -> Int { 1 }

    func setNextID(_ id: Int, in collection: String) throws(SyncError) {}
}
