public import Keel

extension Store {
    /// Drops a queued change (`CachingSync/discard(_:)`), such as one the server rejected,
    /// and rolls the live model back to the record the local copy then holds, with the
    /// usual events. For an update, patch or delete that record is the server's, read again
    /// from the server (the local copy's record when the server cannot be reached).
    ///
    /// - A discarded update or patch restores the server's state: the changed attributes
    ///   are set back (`change:title`, `change`), the model is synced again, and live
    ///   queries move it.
    /// - A discarded create removes the record: the model is destroyed (`destroy`) and
    ///   leaves the store's queries and collections.
    /// - A discarded delete brings the record back: the store holds a model for it again.
    ///
    /// A model whose record has other changes still queued takes the local record with
    /// those changes and stays pending.
    ///
    /// ```swift
    /// for change in try await store.cachingSync?.queuedChanges() ?? [] where change.state != .pending {
    ///     try await store.discard(change)   // the screen shows the server's values again
    /// }
    /// ```
    ///
    /// - Parameter change: A queued change, from `CachingSync/queuedChanges()`.
    /// - Throws: ``Keel/SyncError/missingBackend`` when the store's backend is not a
    ///   `CachingSync`; `SyncError.storage(_:)` when the local store fails.
    public func discard(_ change: QueuedChange) async throws(SyncError) {
        guard let cache = cachingSync else { throw .missingBackend }
        try await cache.discard(change)
        let isPending = try await cache.local.queuedChanges().contains {
            $0.collection == change.collection && $0.recordID == change.recordID
        }
        let record = try await cache.local.record(change.recordID, in: change.collection)
        restore(change.recordID, in: change.collection, to: record, isPending: isPending)
    }

    /// Gives the live model of a record the attributes the local copy holds for it, or
    /// destroys it when the local copy no longer has the record.
    private func restore(_ id: String, in collection: String, to record: Attributes?, isPending: Bool) {
        let live = identityMap.existing(Model.self, id: .string(id), in: collection)
        guard let record else {
            live?.trigger(Event(name: "destroy", model: live, options: ChangeOptions()))
            return
        }
        guard let model = live else {
            if let type = registeredClass(at: collection) {
                _ = identityMap.model(type, collection: collection, attributes: record)
            }
            return
        }
        model.set(record)
        for key in model.attributes.keys where record[key] == nil { model.unset(key) }
        if !isPending {
            model.markSynced()
            model.setSyncState(.synced)
        }
    }
}
