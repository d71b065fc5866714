import Keel

extension SQLiteSync {
    /// Answers a read of one stored record on the calling thread when the connection is
    /// free, instead of a trip to the store's queue and back.
    ///
    /// The trip costs two thread switches (and, from the main actor, a turn of its run loop),
    /// several times what the read itself costs: the read a detail screen makes when it
    /// opens. Only a read of a record that exists and decodes is answered here, with one
    /// `SELECT` by primary key, so the caller never waits for another operation and never
    /// for more than one record; anything else (a list, a nested collection, a missing or
    /// damaged record, a connection in use, a closed store, a cancelled task) returns `nil`
    /// and takes the queue, which answers it exactly as before.
    func readRecordInPlace(_ request: SyncRequest) -> SyncResponse? {
        guard queue != nil, request.method == .read, !Task.isCancelled else { return nil }
        let resource = ResourcePath(request.url)
        guard let collection = resource.parent, let id = resource.lastSegment else { return nil }
        let idAttribute = self.idAttribute
        let found = connection.withLockIfAvailable { connection -> (record: Attributes, version: Int)? in
            guard let connection else { return nil }
            return try? connection.versionedRecord(id, in: collection, idAttribute: idAttribute)
        }
        guard let found = found ?? nil else { return nil }
        var response = SyncResponse(status: 200, body: .object(found.record))
        // Set whole: the initializer would lower-case the names again, and setting by key
        // grows an empty dictionary; a one-entry literal allocates once.
        response.headers = ["etag": RecordVersionTag.etag(found.version)]
        return response
    }
}
