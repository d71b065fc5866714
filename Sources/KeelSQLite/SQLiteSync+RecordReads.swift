import Keel

extension SQLiteSync {
    /// Answers a read on the calling thread when the connection is free, instead of a trip
    /// to the store's queue and back.
    ///
    /// The trip costs two thread switches (and, from the main actor, a turn of its run loop)
    /// and hands every value the read parsed to another thread, which frees them there: for
    /// a list of 10,000 records that handover cost more than the read itself, whose models
    /// are built on the caller either way. A read of one stored record takes a single
    /// `SELECT` by primary key; any other read (a list, a filter, a nested collection, a
    /// missing record) runs as it would on the queue, in its own read transaction. The
    /// caller never waits for another operation: a connection in use, a closed store or a
    /// cancelled task returns `nil` and takes the queue, which answers exactly as before.
    ///
    /// A store in memory, which has no queue and answers every request on the calling
    /// thread anyway, takes this path too: its read of one stored record skips the read
    /// transaction (`BEGIN … ROLLBACK`) and the REST semantics, whose answer is the same.
    func readInPlace(_ request: SyncRequest) -> Result<SyncResponse, SyncError>? {
        guard request.method == .read, !Task.isCancelled else { return nil }
        if let response = readRecordInPlace(request) { return .success(response) }
        let idAttribute = self.idAttribute
        let answer = connection.withLockIfAvailable { connection -> Result<SyncResponse, SyncError>? in
            guard let connection else { return nil }
            return Result { () throws(SyncError) -> SyncResponse in
                try connection.perform(request, idAttribute: idAttribute, beforeCommit: nil)
            }
        }
        return answer ?? nil
    }

    /// Answers a read of one stored record that exists and decodes with one `SELECT` by
    /// primary key, when the connection is free; anything else returns `nil`.
    private func readRecordInPlace(_ request: SyncRequest) -> SyncResponse? {
        let resource = ResourcePath(request)
        guard let collection = resource.parent, let id = resource.lastSegment else { return nil }
        let idAttribute = self.idAttribute
        let found = connection.withLockIfAvailable { connection -> (record: Attributes, version: Int)? in
            guard let connection else { return nil }
            return try? connection.versionedRecord(id, in: collection, idAttribute: idAttribute)
        }
        guard let found = found ?? nil else { return nil }
        var response = SyncResponse(status: 200, body: .object(found.record))
        // Set whole: the initializer would lower-case the names again, and setting by key
        // grows an empty dictionary.
        response.headers = Self.etagHeaders(version: found.version)
        return response
    }

    /// The headers of a record read at `version` (``RecordVersionTag/headers(_:)``, shared
    /// for the first versions).
    static func etagHeaders(version: Int) -> [String: String] {
        RecordVersionTag.headers(version)
    }
}
