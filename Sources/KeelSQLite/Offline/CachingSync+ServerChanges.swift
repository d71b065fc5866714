public import Keel

extension CachingSync: ChangeReceiving {
    /// The remote: pulls and pushed records are read from the server, not the local copy.
    ///
    /// ```swift
    /// cache.changeSource  // cache.remote
    /// ```
    public var changeSource: any Sync { remote }

    /// The stored cursor of a feed, kept in the local copy (see
    /// ``ServerChangeStore/cursor(for:)``).
    ///
    /// ```swift
    /// let since = try await cache.cursor(for: "pull:/todos")
    /// ```
    ///
    /// - Parameter feed: The feed's name.
    /// - Returns: The cursor, or `nil`.
    /// - Throws: `SyncError.storage(_:)`, also when the local store is
    ///   not a ``ServerChangeStore``.
    public func cursor(for feed: String) async throws(SyncError) -> String? {
        try await changeStore().cursor(for: feed)
    }

    /// Stores the server's changes and their cursor in the local copy in one transaction,
    /// and answers with what the live models should show.
    ///
    /// A change to a record with a queued local change is not stored over it. When the
    /// record's ``VersionCheck`` is an attribute and the change brings a version other than
    /// the one the queued change was based on, the record's ``ConflictPolicy`` decides at
    /// once: ``ConflictResolution/useServer`` drops the queued changes and stores (and shows)
    /// the server's record, ``ConflictResolution/keep`` marks the queued change in conflict
    /// for ``conflicts()``, and ``ConflictResolution/useClient`` or
    /// ``ConflictResolution/merged(_:)`` leave the queued change to be settled when the
    /// queue is sent (its version check asks the policy again). Without an attribute to
    /// compare, the queued change stays as it is and the replay's version check decides.
    /// Either way the local change is never lost without the policy's say.
    ///
    /// ```swift
    /// let shown = try await cache.receive(batch)
    /// ```
    ///
    /// - Parameter batch: The changes and the cursor after them.
    /// - Returns: The stored changes in order, then the server's changes the conflict policy
    ///   chose over queued ones.
    /// - Throws: `SyncError.storage(_:)`; nothing is stored then.
    public func receive(_ batch: ChangeBatch) async throws(SyncError) -> [RemoteChange] {
        let check = configuration.versionCheck(for: batch.collection)
        let stored = try await changeStore().store(batch, versionCheck: check)
        var shown = stored.applied
        guard case .attribute = check else { return shown }
        for change in stored.heldBack {
            if let chosen = try await settle(change, in: CachePath.normalized(batch.collection), check: check) {
                shown.append(chosen)
            }
        }
        return shown
    }

    /// Lets the conflict policy decide between a server's change and the queued changes of
    /// its record; returns the change when the server's side was taken.
    private func settle(_ incoming: RemoteChange, in collection: String, check: VersionCheck) async throws(SyncError)
        -> RemoteChange?
    {
        let id = CachePath.key(incoming.id)
        let queued = try await local.queuedChanges().filter { $0.collection == collection && $0.recordID == id }
        guard let first = queued.first, case .pending = first.state else { return nil }
        let server = incoming.kind == .deleted ? nil : incoming.attributes
        let version = Self.version(of: server, headers: [:], check: check)
        if server != nil && version == first.baseVersion { return nil }
        let conflict = SyncConflict(
            change: first,
            local: first.method == .delete ? nil : try await local.record(id, in: collection),
            server: server
        )
        switch await configuration.conflictPolicy(for: collection).decide(conflict) {
        case .useServer:
            let record = server.map { RemoteRecord(attributes: $0, version: version) }
            for change in queued { try await local.discard(change, serverRecord: record) }
            return incoming
        case .keep:
            try await local.mark(first, as: .conflict(server: server))
            return nil
        case .useClient, .merged:
            return nil
        }
    }

    func changeStore() throws(SyncError) -> any ServerChangeStore {
        guard let store = local as? any ServerChangeStore else {
            throw .storage("the local store \(type(of: local)) does not keep the server's changes (it is no ServerChangeStore)")
        }
        return store
    }
}
