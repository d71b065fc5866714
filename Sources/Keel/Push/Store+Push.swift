extension Store {
    /// Applies a class's changes from a push source as they arrive, until the calling task
    /// is cancelled: records join, change in or leave the store, its live queries and its
    /// collections with the usual `add`, `change` and `remove` events.
    ///
    /// Each change goes through the backend's local copy first when it keeps one
    /// (``ChangeReceiving``, such as `CachingSync`): stored there with the event id in one
    /// transaction, so after a restart the source resumes after the last change applied,
    /// and records with a change queued locally keep it for the conflict policy. A change
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
    ///   local copy fails; a record that cannot be read is skipped until it changes again.
    ///   Returns without throwing when the task is cancelled.
    public func listen<M: Model>(_ type: M.Type, to source: any PushSource) async throws(SyncError) {
        let path = storedClass(for: type).path
        let feed = "push:\(path)"
        let receiver = sync as? any ChangeReceiving
        let origin = receiver?.changeSource ?? sync
        let lastEventID = try await receiver?.cursor(for: feed) ?? changeLedger.cursors[feed]
        do {
            for try await pushed in source.changes(after: lastEventID) {
                let batch = ChangeBatch(collection: path, changes: [pushed.change], cursor: pushed.eventID, feed: feed)
                do {
                    _ = try await receive(batch, type: type, from: origin)
                } catch {
                    if case .storage = error { throw error }
                }
            }
        } catch let error as SyncError {
            throw error
        } catch {
            if Task.isCancelled { return }
            throw .transport(String(describing: error))
        }
    }
}
