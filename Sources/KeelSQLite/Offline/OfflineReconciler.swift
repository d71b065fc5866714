import Keel

/// Merges the remote's answers into the local copy: upserts records, removes the orphans of
/// a complete list, and leaves records with queued changes as they are locally.
struct OfflineReconciler {
    let tables: OfflineTables

    /// - Complexity: O(*n* + *m*) statements for *n* remote and *m* stored records.
    func store(_ records: [RemoteRecord], in collection: String, isComplete: Bool) throws(SQLiteStoreError) {
        try tables.ensureCollection(collection)
        let queued = Set(
            try tables.connection.rows(
                "SELECT DISTINCT record_id FROM offline_queue WHERE collection = ?1",
                [.text(collection)]
            ).compactMap { $0.first ?? nil }
        )
        var remoteKeys: [String] = []
        for record in records {
            guard let id = record.attributes[tables.idAttribute], !id.isNull else { continue }
            let key = CachePath.key(id)
            remoteKeys.append(key)
            if queued.contains(key) { continue }
            try tables.put(record.attributes, id: key, in: collection, version: record.version)
        }
        guard isComplete else { return }
        let remote = Set(remoteKeys)
        let stored = try tables.connection.rows(
            "SELECT id FROM offline_records WHERE collection = ?1 ORDER BY seq",
            [.text(collection)]
        ).compactMap { $0.first ?? nil }
        var order = remoteKeys
        for key in stored where !remote.contains(key) {
            if queued.contains(key) {
                order.append(key)
            } else {
                try tables.deleteRow(key, in: collection)
            }
        }
        for (index, key) in order.enumerated() {
            try tables.connection.run(
                "UPDATE offline_records SET seq = ?1 WHERE collection = ?2 AND id = ?3",
                [.integer(index + 1), .text(collection), .text(key)]
            )
        }
    }
}
