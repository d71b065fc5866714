public import Keel

extension SQLiteSync: TransactionalSync {
    /// Answers `requests` in order in one `BEGIN IMMEDIATE … COMMIT` transaction: every
    /// write is stored, or none is.
    ///
    /// A store opened with ``writesOnCallingThread`` runs the transaction on the calling
    /// thread when the connection is free, as it runs a single write.
    ///
    /// `AtomicOperations.save(_:destroying:options:)` and
    /// `Store.saveChanges(atomically:options:)` use it for models whose backend is this
    /// store, so a new list and its new items are created together or not at all.
    ///
    /// ```swift
    /// let store = try SQLiteSync(fileURL: file)
    /// let responses = try await store.performInTransaction([
    ///     SyncRequest(method: .create, url: URL(filePath: "/lists"), body: ["name": "Groceries"]),
    ///     SyncRequest(method: .create, url: URL(filePath: "/items"), body: ["title": "Milk"]),
    /// ], links: [RequestLink(request: 1, keyPath: ["list_id"], source: 0)])
    /// responses[1].body?["list_id"]   // the new list's id
    /// ```
    ///
    /// - Parameters:
    ///   - requests: The requests, in order.
    ///   - links: The ids to carry from creates to later requests' bodies.
    /// - Returns: One response per request, in order.
    /// - Throws: The first failing request's `SyncError` (then nothing was stored), or
    ///   `SyncError.cancelled` when the task was cancelled before the transaction began.
    /// - Precondition: Each link's `source` is a create that comes before its `request`, and
    ///   its `keyPath` is not empty.
    public func performInTransaction(
        _ requests: [SyncRequest],
        links: [RequestLink]
    ) async throws(SyncError) -> [SyncResponse] {
        for link in links {
            precondition(
                requests.indices.contains(link.request) && (0..<link.request).contains(link.source)
                    && requests[link.source].method == .create && !link.keyPath.isEmpty,
                "RequestLink \(link) must name an earlier create and a key path"
            )
        }
        let idAttribute = self.idAttribute
        let beforeCommit = self.beforeCommit
        let answer = inPlace { connection in
            Result { () throws(SyncError) -> [SyncResponse] in
                try connection.perform(requests, links: links, idAttribute: idAttribute, beforeCommit: beforeCommit)
            }
        }
        if let answer { return try answer.get() }
        let result = await withConnection { connection in
            Result { () throws(SyncError) -> [SyncResponse] in
                try connection.perform(requests, links: links, idAttribute: idAttribute, beforeCommit: beforeCommit)
            }
        }
        switch result {
        case .success(let outcome): return try outcome.get()
        case .failure(.cancelled): throw .cancelled
        case .failure(.store(let error)): throw Self.syncError(error)
        }
    }
}
