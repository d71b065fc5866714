extension Collection {
    // MARK: - Removing

    /// Removes a model (or the model with its id), firing `remove` and `update`.
    ///
    /// ```swift
    /// notes.remove(note)
    /// ```
    ///
    /// - Parameters:
    ///   - model: The model, or another instance with its id.
    ///   - silent: Suppresses events.
    ///   - options: Further options.
    /// - Returns: The removed model, or `nil` when it was not in the collection.
    ///
    /// Finding the model is not a read: unlike ``get(_:)-(Model)``, a removal reports no
    /// access to Observation, so code that removes while it is tracked does not come to
    /// depend on the collection's models.
    ///
    /// - Complexity: O(1) for the last model. Otherwise O(log *n*), except that the first
    ///   removal from the middle costs O(*n*) once: the models move into slots that later
    ///   removals leave empty, until something needs them packed again (``models``, a sort,
    ///   an insertion before the end, or more empty slots than models).
    @discardableResult
    public func remove(_ model: Model, silent: Bool = false, options: UpdateOptions = UpdateOptions()) -> M? {
        remove(one: member(model), silent: silent, options: options)
    }

    /// Removes the model with this id or client id.
    ///
    /// ```swift
    /// notes.remove(1)
    /// ```
    ///
    /// - Parameters:
    ///   - id: An id, a client id or an attributes object.
    ///   - silent: Suppresses events.
    ///   - options: Further options.
    /// - Returns: The removed model, or `nil` when there was none.
    ///
    /// Finding the model is not a read: unlike ``get(_:)-(JSONValue)``, a removal reports
    /// no access to Observation.
    ///
    /// - Complexity: As for removing a model: O(log *n*) amortised, O(1) for the last model.
    @discardableResult
    public func remove(_ id: JSONValue, silent: Bool = false, options: UpdateOptions = UpdateOptions()) -> M? {
        remove(one: member(id), silent: silent, options: options)
    }

    /// Removes models, firing `remove` for each (in the given order) and one `update`.
    ///
    /// ```swift
    /// notes.remove(notes.models)  // empties the collection
    /// ```
    ///
    /// - Parameters:
    ///   - models: The models, or other instances with their ids; absent ones are skipped.
    ///   - silent: Suppresses events.
    ///   - options: Further options.
    /// - Returns: The models that were removed.
    /// - Complexity: O(*n* + *k* log *n*) for *k* models out of *n*.
    @discardableResult
    public func remove(_ models: [Model], silent: Bool = false, options: UpdateOptions = UpdateOptions()) -> [M] {
        remove(found: models.compactMap { member($0) }, silent: silent, options: options)
    }

    /// Removes and returns the last model.
    ///
    /// ```swift
    /// let last = notes.pop()
    /// ```
    ///
    /// - Parameter options: Further options.
    /// - Returns: The removed model, or `nil` when the collection is empty.
    /// - Complexity: O(1).
    @discardableResult
    public func pop(options: UpdateOptions = UpdateOptions()) -> M? {
        guard let last = lastModel else { return nil }
        // A model of the collection: `get` would find the model itself.
        return remove(one: last, silent: false, options: options)
    }

    /// Removes and returns the first model.
    ///
    /// ```swift
    /// let first = notes.shift()
    /// ```
    ///
    /// - Parameter options: Further options.
    /// - Returns: The removed model, or `nil` when the collection is empty.
    /// - Complexity: O(log *n*), after a single O(*n*) step that lasts until the
    ///   collection next packs its models (for ``models``, a sort or an insertion).
    @discardableResult
    public func shift(options: UpdateOptions = UpdateOptions()) -> M? {
        guard modelCount > 0 else { return nil }
        return remove(one: model(at: 0), silent: false, options: options)
    }

    /// Removes `model`, a model of the collection or `nil` when none was found, as
    /// ``remove(found:silent:options:)`` removes one, without building arrays of `M` (in a
    /// collection of a model type from another module, each looked up `Array<M>`'s metadata).
    private func remove(one model: M?, silent: Bool, options: UpdateOptions) -> M? {
        guard admitsMutation(), let model else { return nil }
        // The options are read where they lie: a copy to set `silent` in cost a removal a copy
        // and a destruction through their value witnesses.
        let isSilent = silent || options.silent
        guard let index = removeFromOrder(model) else { return nil }
        unindex(model)
        let forwarder = unretainedForwardingHandler
        let handlersRan = !isSilent && fireRemove(of: model, at: index, options: options.change, forwarder: forwarder)
        forwarder._withUnsafeGuaranteedRef { removeReference(model, forwarder: $0, mayBeBack: handlersRan) }
        if !isSilent && listensToUpdates {
            let changes = CollectionChanges(added: [], removed: [model], merged: [])
            dispatch(Event(name: "update", collection: self, changes: changes, options: options.change))
        }
        return model
    }

    /// Fires `remove` about `model`, which was at `index`, as Backbone's
    /// `model.trigger('remove', model, this, options)` does: the model's handlers, then,
    /// through this collection's `forwarder`, the collection's `remove` and `all` handlers.
    ///
    /// A model whose only handler for it is the forwarder
    /// (``EventEmitter/runsOnlyForwarder(_:for:)``) would only pass the event on: it is
    /// dispatched on the collection straight away, without the model's dispatch, the
    /// forwarder's and the collection's looks at its name (about 150 instructions), and, with
    /// the default options, lent (``Event/lendingCollectionEvent(named:model:collection:index:to:)``).
    /// When the collection has no handler for it, it is not built.
    ///
    /// - Returns: Whether a handler may have run.
    private func fireRemove(
        of model: M,
        at index: Int,
        options: ChangeOptions,
        forwarder: Unmanaged<EventHandler>
    ) -> Bool {
        let isForwardedOnly = forwarder._withUnsafeGuaranteedRef { model.runsOnlyForwarder($0, for: "remove") }
        guard isForwardedOnly, let unretained = unretainedState else {
            if isForwardedOnly && isBare { return false }
            model.dispatch(Event(name: "remove", model: model, collection: self, index: index, options: options))
            return true
        }
        return unretained._withUnsafeGuaranteedRef { state in
            let position = EventEmitter.position(of: "remove", in: &state.handlers)
            if position == nil && state.allHandlers.isEmpty { return false }
            if options.hasDefaultValues {
                Event.lendingCollectionEvent(
                    named: "remove",
                    model: .passUnretained(model),
                    collection: .passUnretained(self),
                    index: index
                ) { dispatchInline($0, in: state, at: position) }
            } else {
                let event = Event(name: "remove", model: model, collection: self, index: index, options: options)
                dispatch(event, in: state, at: position)
            }
            return true
        }
    }

    private func remove(found: [M], silent: Bool, options: UpdateOptions) -> [M] {
        if found.count == 1 { return remove(one: found[0], silent: silent, options: options).map { [$0] } ?? [] }
        guard admitsMutation() else { return [] }
        var options = options
        if silent { options.silent = true }
        let removed = removeModels(found, options: options)
        if !removed.isEmpty && !options.silent && listensToUpdates {
            let changes = CollectionChanges(added: [], removed: Self.upcast(removed), merged: [])
            dispatch(Event(name: "update", collection: self, changes: changes, options: options.change))
        }
        return removed
    }

    /// Whether an `update` event would run any handler: one of its name, an `all` handler or
    /// a forwarder.
    ///
    /// Looked at after the `remove` events, whose handlers may register one. An `update` that
    /// runs none is not built: its changes, its details and their release cost about 1,000
    /// instructions per call, more than the lookup, in a collection that only listens to
    /// `remove`.
    ///
    /// The state is read in place, without the call of ``EventEmitter/hasNoHandlers(named:)``.
    private var listensToUpdates: Bool {
        guard let unretained = unretainedState else { return hasHandlers }
        return unretained._withUnsafeGuaranteedRef { state in
            !state.allHandlers.isEmpty || EventEmitter.position(of: "update", in: &state.handlers) != nil
        }
    }

    /// Removes models in one pass, then fires `remove` for each with the index it would have
    /// had had they been removed one by one (Backbone's order), and detaches them.
    ///
    /// The lists are walked as `[Model]`: iterating or indexing an `[M]` is an unspecialized
    /// generic call wherever `M` is not known at compile time.
    func removeModels(_ models: [M], options: UpdateOptions) -> [M] {
        let models = Self.upcast(models)
        var wanted = IdentityTable(capacity: models.count)
        for index in models.indices { wanted.insert(models[index]) }
        var originalIndex = IdentityTable(capacity: models.count)
        let current = Self.upcast(storage)
        var kept: [Model] = []
        kept.reserveCapacity(current.count)
        for index in current.indices {
            let model = current[index]
            if wanted.contains(model) {
                originalIndex.insert(model, value: index)
            } else {
                kept.append(model)
            }
        }
        guard !originalIndex.isEmpty else { return [] }
        let total = current.count
        mutateModels { $0 = Self.downcast(kept) }

        var removed: [Model] = []
        removed.reserveCapacity(originalIndex.count)
        var listed = IdentityTable(capacity: originalIndex.count)
        for index in models.indices where originalIndex.contains(models[index]) {
            // A model given twice is listed once.
            if listed.insert(models[index]) { removed.append(models[index]) }
        }
        for index in removed.indices { unindex(removed[index]) }

        var alreadyRemoved = FenwickTree(count: total)
        var audience = options.silent ? nil : ModelEventAudience(named: "remove", in: self)
        // The events share one context, built with the first: `nil` until then.
        var sharedContext: Event.Context?? = nil
        for model in removed {
            let index = originalIndex.value(for: model) ?? 0
            let currentIndex = index - alreadyRemoved.prefixSum(upTo: index)
            alreadyRemoved.increment(at: index)
            if audience?.isEmpty(for: model) == false {
                let context = sharedContext ?? Event.Context(collection: self, options: options.change)
                sharedContext = context
                model.dispatch(Event(name: "remove", model: model, index: currentIndex, context: context))
                audience?.refresh()
            }
            removeReference(model)
        }
        return Self.downcast(removed)
    }
}
