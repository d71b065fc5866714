extension Store {
    /// Holds a new model without saving it, as SwiftData's `ModelContext.insert` does: live
    /// queries show it at once, and ``saveChanges(atomically:options:)`` creates it on the
    /// server later (``insertedModels`` lists it until then).
    ///
    /// ```swift
    /// let milk = Todo(["title": "Milk"])
    /// try store.insert(milk)
    /// store.insertedModels.count   // 1
    /// try await store.saveChanges()
    /// ```
    ///
    /// - Parameter model: The model; usually new (without an id).
    /// - Throws: ``IdentityMapError/conflict(collection:id:existingType:)`` when the store
    ///   already holds another instance with the model's id.
    public func insert<M: Model>(_ model: M) throws(IdentityMapError) {
        try identityMap.adopt(model, collection: storedClass(for: M.self).path)
        if model.isNew { pendingChanges.insert(model) }
    }

    /// Marks a held model for deletion on the next ``saveChanges(atomically:options:)``, as
    /// SwiftData's `ModelContext.delete` does; a model inserted and never saved is
    /// discarded at once instead (it emits `destroy`, and leaves the store and its queries).
    ///
    /// A model marked for deletion stays in live queries until the save destroys it;
    /// ``rollback()`` unmarks it.
    ///
    /// ```swift
    /// store.delete(milk)
    /// store.deletedModels    // [milk]
    /// ```
    ///
    /// - Parameter model: The model.
    public func delete(_ model: Model) {
        guard !pendingChanges.delete(model) else { return }
        model.trigger(Event(name: "destroy", model: model, options: ChangeOptions()))
    }

    /// The models inserted with ``insert(_:)`` and not saved yet, in the order they were
    /// inserted.
    ///
    /// ```swift
    /// store.insertedModels.count
    /// ```
    public var insertedModels: [Model] {
        pendingChanges.prune(isHeld: holds)
        return pendingChanges.inserted
    }

    /// The held models that were fetched or saved and have changed since
    /// (``Model/unsavedChanges`` is not `nil`), in the order the store came to hold them;
    /// models marked for deletion are not listed.
    ///
    /// ```swift
    /// todo["done"] = true
    /// store.changedModels     // [todo]
    /// ```
    ///
    /// - Complexity: O(*n* log *n*) for *n* held models.
    public var changedModels: [Model] {
        let deleted = Set(deletedModels.map(ObjectIdentifier.init))
        return classes.values.flatMap { $0.orderedHeld() }
            .sorted { $0.sequence < $1.sequence }
            .map(\.model)
            .filter { !$0.isNew && !deleted.contains(ObjectIdentifier($0)) && $0.unsavedChanges != nil }
    }

    /// The models marked with ``delete(_:)`` and not destroyed yet, in the order they were
    /// marked.
    ///
    /// ```swift
    /// store.deletedModels.count
    /// ```
    public var deletedModels: [Model] {
        pendingChanges.prune(isHeld: holds)
        return pendingChanges.deleted
    }

    /// Whether ``saveChanges(atomically:options:)`` has anything to send.
    ///
    /// ```swift
    /// saveButton.isEnabled = store.hasChanges
    /// ```
    ///
    /// - Complexity: O(*n*) for *n* held models.
    public var hasChanges: Bool {
        !insertedModels.isEmpty || !deletedModels.isEmpty
            || classes.values.contains { stored in
                stored.orderedHeld().contains { !$0.model.isNew && $0.model.unsavedChanges != nil }
            }
    }

    /// Sends every pending change: creates the ``insertedModels``, saves the
    /// ``changedModels`` and destroys the ``deletedModels``, as Core Data's
    /// `save()` commits a context.
    ///
    /// Every model is validated first; an invalid one emits `invalid` and stops the call
    /// before anything is sent. New parents are created before the models that link to them,
    /// and each child's foreign key is set from its parent's new id.
    ///
    /// Over a backend that offers transactions (``TransactionalSync``, such as `SQLiteSync`),
    /// everything goes in one transaction, all or nothing. With `atomically`, JSON:API
    /// models go in one all-or-nothing request where the server offers the Atomic
    /// Operations extension (see ``AtomicOperations``). Otherwise each model is one
    /// request, in order, and the first failure stops the call: the changes sent before it
    /// stay saved, and the rest stay pending, so calling again retries them. An atomic
    /// request the server committed but whose results Keel cannot all map throws
    /// ``SyncError/atomicBatchCommitted(unmapped:reason:)``; the new models it names are no
    /// longer pending, so calling again does not create them twice.
    ///
    /// ```swift
    /// try store.insert(Todo(["title": "Milk"]))
    /// archived["done"] = true
    /// store.delete(stale)
    /// try await store.saveChanges()   // one create, one update, one delete
    /// ```
    ///
    /// - Parameters:
    ///   - atomically: The server's Atomic Operations endpoint, for JSON:API models.
    ///   - options: Options for every request.
    /// - Returns: Whether the changes went in one request, in one transaction, or one by one.
    /// - Throws: ``SyncError``: the first model's validation failure, or the first request's
    ///   failure.
    @discardableResult
    public func saveChanges(
        atomically: AtomicOperations? = nil,
        options: SyncOptions = SyncOptions()
    ) async throws(SyncError) -> AtomicOperations.Delivery {
        let saving = insertedModels + changedModels
        let destroying = deletedModels
        let operations = atomically ?? AtomicOperations(endpoint: nil)
        defer { pendingChanges.prune(isHeld: holds) }
        do {
            return try await operations.save(saving, destroying: destroying, options: options)
        } catch {
            if case .atomicBatchCommitted(let unmapped, _) = error { pendingChanges.forgetInserted(unmapped) }
            throw error
        }
    }

    /// Discards every pending change, as Core Data's `rollback()` does: changed models
    /// return to their server state (``Model/revert(silent:)``), inserted models are
    /// discarded (they emit `destroy` and leave the store), and models marked for deletion
    /// are unmarked.
    ///
    /// ```swift
    /// todo["title"] = "Typo"
    /// store.rollback()
    /// todo["title"]   // the server's title
    /// ```
    public func rollback() {
        let inserted = insertedModels
        let changed = changedModels
        pendingChanges.removeAll()
        for model in changed { model.revert() }
        for model in inserted { model.trigger(Event(name: "destroy", model: model, options: ChangeOptions())) }
    }

    /// Whether the store holds this instance.
    private func holds(_ model: Model) -> Bool {
        classes.values.contains { $0.held[model.cidNumber]?.model === model }
    }
}
