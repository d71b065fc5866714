import Foundation
public import Keel

extension SQLiteOfflineStore {
    /// Answers a read from the local copy (see ``OfflineStore/read(_:)``).
    ///
    /// ```swift
    /// let response = try await local.read(SyncRequest(method: .read, url: URL(string: "/notes/1")!))
    /// ```
    ///
    /// - Parameter request: A `read` request.
    /// - Returns: The record (with its state header when it has queued changes) or list.
    /// - Throws: `SyncError.storeRefused(_:)` for a missing record,
    ///   `SyncError.storage(_:)` when the file cannot be read.
    public func read(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        try await transaction(writes: false) { (tables) throws(SyncError) in
            var records = OfflineRecordStore(tables: tables)
            var response = try records.respond(to: request, idAttribute: tables.idAttribute)
            let target = CachePath.target(of: request)
            if response.body?.objectValue != nil, let id = target.id,
                let state = try Self.storing({ () throws(SQLiteStoreError) in
                    try tables.queue(collection: target.collection, recordID: id).recordState
                })
            {
                response.headers[SyncState.headerName.lowercased()] = state.headerValue
            }
            return response
        }
    }

    /// Whether the local copy holds the record, or records of the collection (see
    /// ``OfflineStore/holds(_:)``).
    ///
    /// ```swift
    /// try await local.holds(SyncRequest(method: .read, url: URL(string: "/notes")!))
    /// ```
    ///
    /// - Parameter request: A `read` request.
    /// - Returns: Whether ``read(_:)`` answers from stored data.
    /// - Throws: `SyncError.storage(_:)`.
    public func holds(_ request: SyncRequest) async throws(SyncError) -> Bool {
        try await transaction(writes: false) { (tables) throws(SyncError) in
            try Self.storing { () throws(SQLiteStoreError) in
                let resource = ResourcePath(request.url)
                if let parent = resource.parent, let id = resource.lastSegment,
                    try tables.record(id, in: parent) != nil
                {
                    return true
                }
                return try tables.collectionExists(resource.path)
            }
        }
    }

    /// Writes locally and queues the change in one transaction (see
    /// ``OfflineStore/write(_:idempotencyKey:versionCheck:)``).
    ///
    /// ```swift
    /// let request = SyncRequest(method: .create, url: URL(string: "/notes")!, body: ["title": "A"])
    /// let response = try await local.write(request, idempotencyKey: UUID().uuidString, versionCheck: .none)
    /// response.body?["id"]  // "local-1"
    /// ```
    ///
    /// - Parameters:
    ///   - request: A `create`, `update`, `patch` or `delete` request.
    ///   - idempotencyKey: The change's key.
    ///   - versionCheck: Unused here: the base version is the stored server version.
    /// - Returns: The local answer, `pending`.
    /// - Throws: `SyncError` as a REST server answers, or `SyncError.storage(_:)`.
    public func write(_ request: SyncRequest, idempotencyKey: String, versionCheck: VersionCheck)
        async throws(SyncError) -> SyncResponse
    {
        try await transaction(writes: true) { (tables) throws(SyncError) in
            var local = request
            var target = CachePath.target(of: request)
            let queuedBody = request.unwrappedBody
            let isWrapped = request.body == nil || queuedBody != request.body
            local.body = queuedBody
            local.rootKey = nil
            if request.method == .create {
                var body = queuedBody?.objectValue ?? [:]
                if body[tables.idAttribute] == nil || body[tables.idAttribute] == .null {
                    let number = try Self.storing { () throws(SQLiteStoreError) in
                        try tables.nextCounter("temporary_id")
                    }
                    body[tables.idAttribute] = .string(TemporaryID.make(number))
                }
                target.id = body[tables.idAttribute].map(CachePath.key)
                local.body = .object(body)
            }
            guard let recordID = target.id else {
                throw .storeRefused(StoreRefusal(.notFound, path: target.collection))
            }
            let baseVersion = try Self.storing { () throws(SQLiteStoreError) in
                try tables.version(of: recordID, in: target.collection)
            }
            if request.method == .patch, request.rootKey == "data", let changes = queuedBody?.objectValue,
                JSONAPIResource.isResource(changes),
                let stored = try Self.storing({ () throws(SQLiteStoreError) in
                    try tables.record(recordID, in: target.collection)
                }),
                JSONAPIResource.isResource(stored)
            {
                // A JSON:API PATCH carries the changed members of `attributes` and
                // `relationships` only; the rest of each stays as stored.
                local.body = .object(JSONAPIResource.merged(stored, changes))
            }
            var records = OfflineRecordStore(tables: tables)
            var response = try records.respond(to: local, idAttribute: tables.idAttribute)
            try Self.storing { () throws(SQLiteStoreError) in
                try tables.enqueue(
                    request.method,
                    url: request.url,
                    collection: target.collection,
                    recordID: recordID,
                    body: queuedBody,
                    headers: request.headers,
                    idempotencyKey: idempotencyKey,
                    baseVersion: baseVersion,
                    rootKey: isWrapped ? request.rootKey : nil
                )
            }
            response.headers[SyncState.headerName.lowercased()] = SyncState.pending.headerValue
            return response
        }
    }

    /// Stores the remote's records, removing orphans of a complete list (see
    /// ``OfflineStore/store(_:in:isComplete:)``).
    ///
    /// ```swift
    /// try await local.store([RemoteRecord(attributes: ["id": 1], version: nil)], in: "/notes", isComplete: true)
    /// ```
    ///
    /// - Parameters:
    ///   - records: The server's records.
    ///   - collection: The collection path.
    ///   - isComplete: Whether they are the whole collection.
    /// - Throws: `SyncError.storage(_:)`.
    /// - Complexity: O(*n* + *m*) for *n* records and *m* stored ones.
    public func store(_ records: [RemoteRecord], in collection: String, isComplete: Bool) async throws(SyncError) {
        let collection = CachePath.normalized(collection)
        try await transaction(writes: true) { (tables) throws(SyncError) in
            try Self.storing { () throws(SQLiteStoreError) in
                try OfflineReconciler(tables: tables).store(records, in: collection, isComplete: isComplete)
            }
        }
    }

    /// The local record, tombstones included (see ``OfflineStore/record(_:in:)``).
    ///
    /// ```swift
    /// try await local.record("1", in: "/notes")?["title"]
    /// ```
    ///
    /// - Parameters:
    ///   - id: The record's id.
    ///   - collection: The collection path.
    /// - Returns: The attributes, or `nil`.
    /// - Throws: `SyncError.storage(_:)`.
    public func record(_ id: String, in collection: String) async throws(SyncError) -> Attributes? {
        let collection = CachePath.normalized(collection)
        return try await transaction(writes: false) { (tables) throws(SyncError) in
            try Self.storing { () throws(SQLiteStoreError) in
                try tables.record(id, in: collection, includingRemoved: true)
            }
        }
    }

    /// The queued changes, oldest first (see ``OfflineStore/queuedChanges()``).
    ///
    /// ```swift
    /// try await local.queuedChanges().count
    /// ```
    ///
    /// - Returns: Every queued change.
    /// - Throws: `SyncError.storage(_:)`.
    public func queuedChanges() async throws(SyncError) -> [QueuedChange] {
        try await transaction(writes: false) { (tables) throws(SyncError) in
            try Self.storing { () throws(SQLiteStoreError) in try tables.queue() }
        }
    }

    /// Keeps a change queued in a new state (see ``OfflineStore/mark(_:as:)``).
    ///
    /// ```swift
    /// try await local.mark(change, as: .pending)
    /// ```
    ///
    /// - Parameters:
    ///   - change: The queued change.
    ///   - state: Its new state.
    /// - Throws: `SyncError.storage(_:)`.
    public func mark(_ change: QueuedChange, as state: QueuedChange.State) async throws(SyncError) {
        try await transaction(writes: true) { (tables) throws(SyncError) in
            try Self.storing { () throws(SQLiteStoreError) in try tables.setState(state, of: change) }
        }
    }

    /// Makes a change pending again on the server's version (see
    /// ``OfflineStore/retry(_:basedOn:)``).
    ///
    /// ```swift
    /// try await local.retry(change, basedOn: "\"7-v3\"")
    /// ```
    ///
    /// - Parameters:
    ///   - change: The queued change.
    ///   - version: The server's current version.
    /// - Throws: `SyncError.storage(_:)`.
    public func retry(_ change: QueuedChange, basedOn version: String?) async throws(SyncError) {
        try await transaction(writes: true) { (tables) throws(SyncError) in
            try Self.storing { () throws(SQLiteStoreError) in
                try tables.setState(.pending, of: change)
                try tables.connection.run(
                    "UPDATE offline_queue SET base_version = NULLIF(?1, '') WHERE seq = ?2",
                    [.text(version ?? ""), .integer(change.sequence)]
                )
            }
        }
    }

    /// The server's id for a sent temporary id (see ``OfflineStore/serverID(for:in:)``).
    ///
    /// ```swift
    /// try await local.serverID(for: "local-1", in: "/notes")  // 7 once the create was sent
    /// ```
    ///
    /// - Parameters:
    ///   - temporaryID: A temporary id.
    ///   - collection: The collection path.
    /// - Returns: The server's id, or `nil`.
    /// - Throws: `SyncError.storage(_:)`.
    public func serverID(for temporaryID: String, in collection: String) async throws(SyncError) -> JSONValue? {
        let collection = CachePath.normalized(collection)
        return try await transaction(writes: false) { (tables) throws(SyncError) in
            try Self.storing { () throws(SQLiteStoreError) -> JSONValue? in
                guard
                    let text = try tables.connection.rows(
                        "SELECT server_id FROM offline_ids WHERE collection = ?1 AND temporary_id = ?2",
                        [.text(collection), .text(temporaryID)]
                    ).first?.first ?? nil
                else { return nil }
                return try tables.decode(text, what: "the id of \(collection)/\(temporaryID)")
            }
        }
    }
}

extension [QueuedChange] {
    /// The state these changes of one record give it: a conflict first, then a failure,
    /// then pending; `nil` when there are none.
    var recordState: SyncState? {
        var state: SyncState?
        for change in self {
            switch change.state {
            case .conflict: return .conflict
            case .failed(let error): state = .failed(error)
            case .pending: if state == nil { state = .pending }
            }
        }
        return state
    }
}
