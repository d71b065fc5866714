extension Store {
    /// Applies a class's changes from a push source as they arrive, until the calling task
    /// is cancelled: records join, change in or leave the store, its live queries and its
    /// collections with the usual `add`, `change` and `remove` events.
    ///
    /// The source's batches (``PushSource/batches(after:)``, the changes that arrived
    /// together) are applied one at a time, each in one go. A batch goes through the
    /// backend's local copy first when it keeps one (``ChangeReceiving``, such as
    /// `CachingSync`): its changes stored there with the last event id in one transaction,
    /// all or none, so after a restart the source resumes after the last batch applied,
    /// and records with a change queued locally keep it for the conflict policy. The live
    /// models follow, change by change in the batch's order, with their events. A change
    /// that carries only an id is read from the server. A change whose version is not newer
    /// than the one applied to its record is skipped, so a change sent twice (a server
    /// resuming from an earlier event) is applied once.
    ///
    /// ```swift
    /// let pushes = ServerSentEventSource(path: "/todos/stream", sync: api)
    /// let listening = Task { @MainActor in try await store.listen(Todo.self, to: pushes) }
    /// // … when the screen goes away:
    /// listening.cancel()
    /// ```
    ///
    /// - Parameters:
    ///   - type: The model class.
    ///   - source: Where the changes come from.
    /// - Throws: `SyncError` when the source gives up (the server refuses the stream) or the
    ///   local copy fails; a record that cannot be read is skipped until it changes again
    ///   (the other changes of its batch are then applied one by one).
    ///   Returns without throwing when the task is cancelled.
    public func listen<M: Model>(_ type: M.Type, to source: any PushSource) async throws(SyncError) {
        let path = storedClass(for: type).path
        let feed = "push:\(path)"
        let receiver = sync as? any ChangeReceiving
        let origin = receiver?.changeSource ?? sync
        let lastEventID = try await receiver?.cursor(for: feed) ?? changeLedger.cursors[feed]
        do {
            for try await pushed in source.batches(after: lastEventID) where !pushed.isEmpty {
                let batch = ChangeBatch(
                    collection: path,
                    changes: pushed.map(\.change),
                    cursor: pushed.last { $0.eventID != nil }?.eventID,
                    feed: feed
                )
                do {
                    _ = try await receive(batch, type: type, from: origin)
                } catch {
                    if case .storage = error { throw error }
                    try await receiveEach(of: pushed, type: type, from: origin, feed: feed)
                }
            }
        } catch let error as SyncError {
            throw error
        } catch {
            if Task.isCancelled { return }
            throw .transport(String(describing: error))
        }
    }

    /// Applies a batch's changes one by one, after the batch failed for a reason other than
    /// the local copy (a record that could not be read), skipping the changes that fail.
    private func receiveEach<M: Model>(
        of pushed: [PushedChange],
        type: M.Type,
        from origin: any Sync,
        feed: String
    ) async throws(SyncError) {
        let path = storedClass(for: type).path
        for change in pushed {
            let batch = ChangeBatch(collection: path, changes: [change.change], cursor: change.eventID, feed: feed)
            do {
                _ = try await receive(batch, type: type, from: origin)
            } catch {
                if case .storage = error { throw error }
            }
        }
    }
}
