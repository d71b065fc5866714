extension Collection {
    // MARK: - Smart update

    /// Updates the collection to hold exactly the given models: adds new ones, merges into
    /// present ones and removes missing ones (each step can be turned off).
    ///
    /// Events, in order: the merged models' `change` events, `remove` for each removed
    /// model, `add` for each added one, `sort` if the order changed, then one `update`.
    /// Without a comparator, the collection takes the order of the input.
    ///
    /// ```swift
    /// notes.set([["id": 1, "title": "Groceries"], ["id": 4, "title": "New"]])
    /// notes.set([["id": 5]], remove: false)
    /// ```
    ///
    /// - Parameters:
    ///   - attributes: One attributes object per model.
    ///   - add: Add models that are not present.
    ///   - remove: Remove models that are not in the input.
    ///   - merge: Merge attributes into present models.
    ///   - at: Where to insert new models; overrides the comparator.
    ///   - silent: Suppresses every event.
    ///   - options: Further options (`parse`, `validate`, `sort`, custom values).
    /// - Returns: The models that correspond to the input, in input order.
    /// - Complexity: O(*n* + *k*) for *k* inputs and *n* models, plus the sort.
    @discardableResult
    public func set(
        _ attributes: [Attributes],
        add: Bool = true,
        remove: Bool = true,
        merge: Bool = true,
        at: Int? = nil,
        silent: Bool = false,
        options: UpdateOptions = UpdateOptions()
    ) -> [M] {
        set(
            inputs: inputs(from: attributes, options: options),
            options: smartOptions(options, add: add, remove: remove, merge: merge, at: at, silent: silent)
        )
    }

    /// Updates the collection to hold exactly the given models; see
    /// ``set(_:add:remove:merge:at:silent:options:)-(_,_,_,_,_,_,_)``.
    ///
    /// ```swift
    /// notes.set([groceries, taxes])
    /// ```
    ///
    /// - Parameters:
    ///   - models: The models.
    ///   - add: Add models that are not present.
    ///   - remove: Remove models that are not in the input.
    ///   - merge: Copy attributes into present models with the same ids.
    ///   - at: Where to insert new models.
    ///   - silent: Suppresses every event.
    ///   - options: Further options.
    /// - Returns: The models that correspond to the input, in input order.
    /// - Complexity: O(*n* + *k*), plus the sort.
    @discardableResult
    @_disfavoredOverload
    public func set(
        _ models: [M],
        add: Bool = true,
        remove: Bool = true,
        merge: Bool = true,
        at: Int? = nil,
        silent: Bool = false,
        options: UpdateOptions = UpdateOptions()
    ) -> [M] {
        set(
            inputs: .models(Self.upcast(models)),
            options: smartOptions(options, add: add, remove: remove, merge: merge, at: at, silent: silent)
        )
    }

    /// Runs a server response through ``parse(_:options:)`` and each new model's `parse`,
    /// then updates the collection as `set` does.
    ///
    /// ```swift
    /// let json = try JSONValue(parsing: data)
    /// try notes.set(parsing: json)
    /// ```
    ///
    /// - Parameters:
    ///   - response: The response body.
    ///   - add: Add models that are not present.
    ///   - remove: Remove models that are not in the response.
    ///   - merge: Merge attributes into present models.
    ///   - silent: Suppresses every event.
    ///   - options: Further options.
    /// - Returns: The models that correspond to the response.
    /// - Throws: ``CollectionError/unparsableResponse(_:)`` when `parse` returns `nil`; the
    ///   collection is left as it was.
    @discardableResult
    public func set(
        parsing response: JSONValue,
        add: Bool = true,
        remove: Bool = true,
        merge: Bool = true,
        silent: Bool = false,
        options: UpdateOptions = UpdateOptions()
    ) throws(CollectionError) -> [M] {
        var options = smartOptions(options, add: add, remove: remove, merge: merge, at: nil, silent: silent)
        options.parse = true
        return set(inputs: try parsedInputs(response, options: options), options: options)
    }

    private func smartOptions(
        _ options: UpdateOptions,
        add: Bool,
        remove: Bool,
        merge: Bool,
        at: Int?,
        silent: Bool
    ) -> UpdateOptions {
        var options = options
        options.add = options.add ?? add
        options.remove = options.remove ?? remove
        options.merge = options.merge ?? merge
        if let at { options.at = at }
        if silent { options.silent = true }
        return options
    }

    /// The inputs for attributes given to `add`, `set`, `reset` or an initializer: with
    /// `parse`, the collection's ``parse(_:options:)`` sees them first as one JSON array
    /// (Backbone's `set` with `parse: true`), and a `nil` result means none.
    func inputs(from attributes: [Attributes], options: UpdateOptions) -> CollectionInputs {
        guard options.parse == true else { return .attributes(attributes) }
        // The array is built straight from the attributes, without an `[JSONValue]` between.
        let parsed = parse(.array(JSONArray(attributes.lazy.map(JSONValue.object))), options: options) ?? []
        return .attributes(parsed)
    }

    func parsedInputs(_ response: JSONValue, options: UpdateOptions) throws(CollectionError) -> CollectionInputs {
        guard let attributes = parse(response, options: options) else {
            throw .unparsableResponse(response)
        }
        return .attributes(attributes)
    }

    /// Backbone's `Collection.set`, with removal in one pass.
    ///
    /// User code runs in the middle (merges' `change` events, `remove` events, model
    /// initializers, the comparator), while the new models are indexed but not yet in
    /// order; a mutation of the collection from there is rejected.
    ///
    /// - Parameter alreadyMerged: Models merged before this call, given among the inputs as
    ///   themselves, that the `update` event counts as merged first (see
    ///   ``mergeInPlace(_:options:)``).
    @discardableResult
    func set(inputs: CollectionInputs, options: UpdateOptions, alreadyMerged: [Model] = []) -> [M] {
        guard admitsMutation() else { return [] }
        let update = whileUpdating { updateModels(inputs: inputs, options: options) }
        if !options.silent {
            // Walked as `[Model]`: indexing an `[M]` is an unspecialized generic call wherever
            // `M` is not known at compile time.
            let toAdd = Self.upcast(update.added)
            if !toAdd.isEmpty {
                var audience = ModelEventAudience(named: "add", in: self)
                for offset in toAdd.indices {
                    let model = toAdd[offset]
                    if audience.isEmpty(for: model) { continue }
                    model.dispatch(
                        Event(
                            name: "add",
                            model: model,
                            collection: self,
                            index: update.at.map { $0 + offset },
                            options: options.change
                        )
                    )
                    audience.refresh()
                }
            }
            if update.reordered {
                dispatch(Event(name: "sort", collection: self, options: options.change))
            }
            // Skip building the lists' event when no one listens.
            let merged = alreadyMerged.isEmpty ? Self.upcast(update.merged) : alreadyMerged + Self.upcast(update.merged)
            if hasHandlers && (!toAdd.isEmpty || !update.removed.isEmpty || !merged.isEmpty) {
                let changes = CollectionChanges(
                    added: toAdd,
                    removed: Self.upcast(update.removed),
                    merged: merged
                )
                dispatch(Event(name: "update", collection: self, changes: changes, options: options.change))
            }
        }
        return update.result
    }

    /// What ``updateModels(inputs:options:)`` did, for the events that follow.
    private struct Update {
        /// The models that correspond to the input, in input order.
        var result: [M]
        var added: [M]
        var removed: [M]
        var merged: [M]
        /// Where the added models were inserted, when not at the comparator's places.
        var at: Int?
        /// Whether the order changed by a sort or by taking the input's order.
        var reordered: Bool
    }

    /// The part of `set` that changes the models and indexes, and fires only the merges'
    /// `change` events and the `remove` events.
    private func updateModels(inputs: CollectionInputs, options: UpdateOptions) -> Update {
        let shouldAdd = options.add ?? true
        let shouldRemove = options.remove ?? true
        let count = modelCount
        var at = options.at
        if let position = at {
            at = position > count ? count : position < 0 ? Swift.max(0, position + count + 1) : position
        }
        let sortable = comparator != nil && at == nil && options.sort != false
        // Read once: a generic class reaches its stored properties through its metadata.
        let forwarder = shouldAdd ? forwardingHandler : nil
        var pass = UpdatePass(
            options: options,
            modelOptions: forwarder.map { optionsForNewModels(options, forwarder: $0) } ?? options.change,
            forwarder: forwarder,
            idAttribute: M.idAttribute,
            sortable: sortable,
            sortAttribute: comparator?.attributeName,
            lists: UpdateLists(capacity: inputs.count, tracksOrder: shouldRemove)
        )
        if shouldAdd {
            byID.reserveCapacity(count + inputs.count)
            byCID.reserveCapacity(count + inputs.count)
        }

        // Each kind of input is read in place from the caller's array, and lent to the step.
        switch inputs {
        case .attributes(let list):
            list.withUnsafeBufferPointer { list in
                for index in list.indices { take(list[index], in: &pass) }
            }
        case .models(let list):
            for index in list.indices { take(list[index], in: &pass) }
        case .mixed(let list):
            for index in list.indices {
                switch list[index] {
                case .model(let model): take(model, in: &pass)
                case .attributes(let attributes): take(attributes, in: &pass)
                }
            }
        }

        var removed: [M] = []
        if shouldRemove {
            removed = removeModels(notIn: pass.lists.seen, options: options)
        }

        var needsSort = pass.needsSort
        var orderChanged = false
        let added = Self.downcast(pass.lists.added)
        let order = pass.lists.order
        if !order.isEmpty && !sortable && shouldAdd && shouldRemove {
            orderChanged = storage.count != order.count || Self.differ(Self.upcast(storage), order)
            if orderChanged { mutateModels { $0 = Self.downcast(order) } }
        } else if !added.isEmpty {
            if sortable { needsSort = true }
            insertModels(added, at: at)
        }
        if needsSort { sortModels() }
        return Update(
            result: Self.downcast(pass.lists.result),
            added: added,
            removed: removed,
            merged: Self.downcast(pass.lists.merged),
            at: at,
            reordered: needsSort || orderChanged
        )
    }

    // MARK: - Inputs

    /// Handles an input of attributes: merges it into the present model with its id, or
    /// builds a new model (unless validation rejects it).
    private func take(_ attributes: consuming Attributes, in pass: inout UpdatePass) {
        // The default `modelID`, without the call, in a collection that has no other.
        if let existing = presentModel(for: attributes, idAttribute: pass.idAttribute) {
            if pass.merges {
                let change = pass.options.change
                if pass.options.parse == true {
                    _ = existing.apply(existing.parse(.object(attributes), options: change) ?? [:], options: change)
                } else {
                    _ = existing.apply(attributes, options: change)
                }
                pass.merged(existing)
            }
            pass.lists.find(existing)
        } else if pass.adds {
            let model = buildModel(attributes, modelOptions: pass.modelOptions)
            if pass.validates && validationFailure(of: model, options: pass.options) != nil { return }
            pass.forwarder.unsafelyUnwrapped._withUnsafeGuaranteedRef { addReference(model, forwarder: $0) }
            pass.lists.add(model)
        }
    }

    /// Handles an input that is a model: merges its attributes into the present model
    /// with its client id or id (unless it is that model), or adds it.
    private func take(_ model: Model, in pass: inout UpdatePass) {
        if let existing = presentModel(for: model) {
            if pass.merges && existing !== model {
                _ = existing.apply(model.storage, options: pass.options.change)
                pass.merged(existing)
            }
            pass.lists.find(existing)
        } else if pass.adds {
            pass.forwarder.unsafelyUnwrapped._withUnsafeGuaranteedRef { addReference(model, forwarder: $0) }
            pass.lists.add(model)
        }
    }

    /// The present model with the id of `attributes`.
    ///
    /// In a collection whose `modelID` is the default one, an integer id is looked up where
    /// it lies in the attributes, without copying the value out.
    @inline(__always)
    private func presentModel(for attributes: borrowing Attributes, idAttribute: String) -> Model? {
        guard isBaseCollection else {
            guard let id = modelID(for: attributes, idAttribute: idAttribute) else { return nil }
            return indexed(id: id)
        }
        let integerID: Int?? = attributes.entries.withUnsafeBufferPointer { entries in
            guard let position = StringIdentity.position(of: idAttribute, in: entries) else { return .some(nil) }
            guard case .int(let integer) = entries[position].value else { return nil }
            return integer
        }
        switch integerID {
        case .some(.some(let integer)): return byID[integer: integer]
        case .some(.none): return nil
        case .none:
            // The default `modelID`, without the call.
            guard let id = Model.identifier(attributes[idAttribute]) else { return nil }
            return indexed(id: id)
        }
    }

    /// The present model with `model`'s client id, or else with its id.
    private func presentModel(for model: Model) -> Model? {
        if let found = byCID[model.cidNumber] { return found }
        guard let id = indexKey(of: model) else { return nil }
        return indexed(id: id)
    }

    /// The options new models are built with: `options` naming this collection, through its
    /// ``forwardingHandler`` (`forwarder`, when the caller has it at hand).
    func optionsForNewModels(_ options: UpdateOptions, forwarder: EventHandler? = nil) -> ChangeOptions {
        var modelOptions = options.change
        modelOptions.collectionForwarder = forwarder ?? forwardingHandler
        return modelOptions
    }

    /// Builds a model for attributes; with `validate: true`, also reports its validation
    /// error as `invalid` on the collection.
    func makeModel(_ attributes: Attributes, options: UpdateOptions) -> (M, ValidationError?) {
        let model = buildModel(attributes, modelOptions: optionsForNewModels(options))
        let error = options.validate == true ? validationFailure(of: model, options: options) : nil
        return (unsafeDowncast(model, to: M.self), error)
    }

    /// Builds the model for attributes (by the ``factory``, or as an `M`), with the options
    /// for new models at hand, typed `Model`: a generic `M?` or `(M, ValidationError?)` is
    /// copied through value witnesses where `M` is not known at compile time.
    private func buildModel(_ attributes: consuming Attributes, modelOptions: ChangeOptions) -> Model {
        if let factory { return factory(attributes, modelOptions) }
        return M(attributes, options: modelOptions)
    }

    /// The validation error of a model built with `validate: true`, reported as `invalid` on
    /// the collection (unless the update is silent and does not ask for the report).
    private func validationFailure(of model: Model, options: UpdateOptions) -> ValidationError? {
        guard let error = model.validationError else { return nil }
        if options.change.reportsInvalid ?? !options.silent {
            dispatch(Event(name: "invalid", model: model, collection: self, error: error, options: options.change))
        }
        return error
    }
}

extension Collection {
    /// Whether two lists of the same length hold different models at some position; an
    /// index loop over `[Model]`, which compiles to concrete code where a loop over `[M]`
    /// stays generic.
    static func differ(_ first: [Model], _ second: [Model]) -> Bool {
        for index in first.indices where first[index] !== second[index] { return true }
        return false
    }
}

/// What every input of one update is handled with, and what handling them built.
private struct UpdatePass {
    /// The options of the update.
    let options: UpdateOptions
    /// `options` for new models, naming the collection (``Collection/optionsForNewModels(_:forwarder:)``).
    let modelOptions: ChangeOptions
    /// Whether the update adds models for inputs that name none of the present ones: whether
    /// it has a ``forwarder``.
    let adds: Bool
    /// Whether new models are validated (`validate: true`).
    let validates: Bool
    /// The collection's forwarding handler when the update adds models, unretained: the
    /// collection holds it, and outlives the update.
    let forwarder: Unmanaged<EventHandler>?
    /// `M.idAttribute`, read once.
    let idAttribute: String
    /// Whether inputs are merged into the present models they name.
    let merges: Bool
    /// Whether the collection sorts itself after the update (it has a comparator and no `at`).
    let sortable: Bool
    /// The attribute the comparator sorts by, if it sorts by one.
    let sortAttribute: String?
    /// Whether a merge changed what the comparator sorts by.
    private(set) var needsSort = false
    /// The models found, added and merged, in input order.
    var lists: UpdateLists

    init(
        options: UpdateOptions,
        modelOptions: ChangeOptions,
        forwarder: EventHandler?,
        idAttribute: String,
        sortable: Bool,
        sortAttribute: String?,
        lists: UpdateLists
    ) {
        self.options = options
        self.modelOptions = modelOptions
        self.forwarder = forwarder.map(Unmanaged.passUnretained)
        adds = forwarder != nil
        validates = options.validate == true
        self.idAttribute = idAttribute
        merges = options.merge ?? true
        self.sortable = sortable
        self.sortAttribute = sortAttribute
        self.lists = lists
    }

    /// Records a present model that an input was merged into.
    mutating func merged(_ model: Model) {
        lists.merge(model)
        if sortable && !needsSort {
            needsSort = sortAttribute.map { model.hasChanged($0) } ?? model.hasChanged()
        }
    }
}
