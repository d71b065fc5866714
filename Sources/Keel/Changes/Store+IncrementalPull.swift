import Foundation

extension Store {
    /// Reads what changed in a class's collection since the last pull and applies it: new
    /// and changed records join or update the store's one instance (`add` and `change`
    /// events, live queries follow), deleted ones leave the store, its queries and its
    /// collections (`destroy`, `remove`).
    ///
    /// The first pull reads the whole collection and removes the held records it does not
    /// return; later ones send the cursor (``IncrementalPull/parameter``). A cursor the
    /// server rejects (``IncrementalPull`` says when) gets a full fetch with reconcile.
    /// Over a backend that keeps a local copy (``ChangeReceiving``, such as `CachingSync`),
    /// the changes and the cursor are stored with it in one transaction, so an app that
    /// restarts continues from there, and records with a change queued locally go through
    /// its conflict policy; over another backend the cursor is kept in memory.
    ///
    /// ```swift
    /// let report = try await store.pull(Todo.self, using: .rails)
    /// print(report.changes.count, "changes; next from", report.cursor ?? "the start")
    /// ```
    ///
    /// - Parameters:
    ///   - type: The model class.
    ///   - pull: How its server answers for changes.
    /// - Returns: What was applied, and the next cursor.
    /// - Throws: `SyncError` when the server or the local copy fails;
    ///   `SyncError.invalidResponse(_:)` when the answer holds no list of records. Nothing is
    ///   applied then, and the cursor stays.
    @discardableResult
    public func pull<M: Model>(_ type: M.Type, using pull: IncrementalPull) async throws(SyncError) -> PullReport {
        let path = storedClass(for: type).path
        let feed = IncrementalPull.feed(for: path)
        let receiver = sync as? any ChangeReceiving
        let source = receiver?.changeSource ?? sync
        let cursor = try await receiver?.cursor(for: feed) ?? changeLedger.cursors[feed]
        let listPath = type.wireFormat.suffixed(path)
        guard let url = URL(string: listPath) else { throw .missingURL("\(listPath) is not a valid URL") }
        var isComplete = cursor == nil
        let response: SyncResponse
        do {
            response = try await source.perform(SyncRequest(method: .read, url: url, query: pull.queryItems(after: cursor)))
        } catch where cursor != nil && pull.rejectsCursor(error) {
            isComplete = true
            response = try await source.perform(SyncRequest(method: .read, url: url, query: pull.queryItems(after: nil)))
        }
        let batch = try pull.batch(
            from: response,
            collection: path,
            idAttribute: type.idAttribute,
            previousCursor: isComplete ? nil : cursor,
            isComplete: isComplete
        )
        let applied = try await receive(batch, type: type, from: source)
        return PullReport(changes: applied, cursor: batch.cursor, wasFullFetch: isComplete)
    }

    /// Applies changes the app learned of by other means (a socket message, a
    /// notification's payload) to a class's records, as a pull applies them: through the
    /// backend's local copy when it keeps one (``ChangeReceiving``), then to the live models.
    ///
    /// A change that carries only an id is read from the server first. A change whose
    /// ``RemoteChange/version`` is not newer than the one applied to its record is skipped.
    ///
    /// ```swift
    /// try await store.apply([RemoteChange(.deleted, id: 7)], to: Todo.self)
    /// store.peek(Todo.self, id: 7)  // nil
    /// ```
    ///
    /// - Parameters:
    ///   - changes: The changes, oldest first.
    ///   - type: The model class.
    /// - Returns: The changes applied to the live models.
    /// - Throws: `SyncError` when a record cannot be read or the local copy fails.
    @discardableResult
    public func apply<M: Model>(_ changes: [RemoteChange], to type: M.Type) async throws(SyncError) -> [RemoteChange] {
        let path = storedClass(for: type).path
        let source = (sync as? any ChangeReceiving)?.changeSource ?? sync
        let batch = ChangeBatch(collection: path, changes: changes, cursor: nil, feed: "apply:\(path)")
        return try await receive(batch, type: type, from: source)
    }

    /// Reads the records of id-only changes, hands the batch to a backend that keeps a local
    /// copy, keeps the cursor otherwise, and shows the outcome in the live models.
    func receive<M: Model>(_ batch: ChangeBatch, type: M.Type, from source: any Sync) async throws(SyncError)
        -> [RemoteChange]
    {
        var batch = batch
        batch.changes = try await Self.readRecords(of: batch.changes, in: batch.collection, type: type, from: source)
        let shown: [RemoteChange]
        if let receiver = sync as? any ChangeReceiving {
            shown = try await receiver.receive(batch)
        } else {
            shown = batch.changes + (batch.isComplete ? heldRecords(of: type, notIn: batch.changes) : [])
            if let cursor = batch.cursor { changeLedger.cursors[batch.feed] = cursor }
        }
        return show(shown, in: storedClass(for: type))
    }

    /// Deletions for the held records of a class that a full fetch did not return.
    private func heldRecords<M: Model>(of type: M.Type, notIn changes: [RemoteChange]) -> [RemoteChange] {
        let returned = Set(changes.map { ResourcePath.segment(for: $0.id) })
        return models(type).compactMap { model in
            guard let id = model.id, !model.isNew, !returned.contains(ResourcePath.segment(for: id)) else { return nil }
            return RemoteChange(.deleted, id: id)
        }
    }

    /// The changes, with each id-only one replaced by the record the server answers now (a
    /// deletion when it answers 404 or 410).
    private static func readRecords<M: Model>(
        of changes: [RemoteChange],
        in collection: String,
        type: M.Type,
        from source: any Sync
    ) async throws(SyncError) -> [RemoteChange] {
        var resolved: [RemoteChange] = []
        resolved.reserveCapacity(changes.count)
        for change in changes {
            guard change.needsRecord else {
                resolved.append(change)
                continue
            }
            let path = type.wireFormat.suffixed(IdentityMap.recordPath(collection: collection, id: change.id))
            guard let url = URL(string: path) else { throw .missingURL("\(path) is not a valid URL") }
            do throws(SyncError) {
                let body = try await source.perform(SyncRequest(method: .read, url: url)).body
                guard let record = body?.objectValue else {
                    throw SyncError.invalidResponse("expected a JSON object for \(path), got \((body ?? .null).debugDescription)")
                }
                resolved.append(RemoteChange(change.kind, id: change.id, attributes: record, version: change.version))
            } catch where error.isNotFound || error.status == 410 {
                resolved.append(RemoteChange(.deleted, id: change.id, version: change.version))
            }
        }
        return resolved
    }

    /// Applies changes to the live models of a class, in order, skipping those whose
    /// version was applied already; a model's unsaved changes stay.
    private func show(_ changes: [RemoteChange], in stored: StoredClass) -> [RemoteChange] {
        var shown: [RemoteChange] = []
        for change in changes where changeLedger.admit(change, in: stored.path) {
            let live = identityMap.existing(Model.self, id: change.id, in: stored.path)
            switch change.kind {
            case .deleted:
                guard let live else { continue }
                guard live.unsavedChanges == nil else { continue }
                live.trigger(Event(name: "destroy", model: live, options: ChangeOptions()))
            case .created, .updated:
                guard var attributes = change.attributes else { continue }
                let unsaved = live?.unsavedChanges
                for key in unsaved?.keys ?? [] where key != stored.type.idAttribute { attributes[key] = nil }
                let model = identityMap.model(stored.type, collection: stored.path, attributes: attributes)
                if live == nil { wire(model, path: stored.path) }
                if unsaved == nil {
                    model.markSynced()
                    // A change the backend lets through leaves no local change queued.
                    model.setSyncState(.synced)
                }
            }
            shown.append(change)
        }
        return shown
    }
}
