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
            inputs: models.map { Input.model($0) },
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
    func inputs(from attributes: [Attributes], options: UpdateOptions) -> [Input] {
        guard options.parse == true else { return attributes.map(Input.attributes) }
        // The array is built straight from the attributes, without an `[JSONValue]` between.
        let parsed = parse(.array(JSONArray(attributes.lazy.map(JSONValue.object))), options: options) ?? []
        return parsed.map(Input.attributes)
    }

    func parsedInputs(_ response: JSONValue, options: UpdateOptions) throws(CollectionError) -> [Input] {
        guard let attributes = parse(response, options: options) else {
            throw .unparsableResponse(response)
        }
        return attributes.map(Input.attributes)
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
    func set(inputs: [Input], options: UpdateOptions, alreadyMerged: [Model] = []) -> [M] {
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
    private func updateModels(inputs: [Input], options: UpdateOptions) -> Update {
        let shouldAdd = options.add ?? true
        let shouldRemove = options.remove ?? true
        let shouldMerge = options.merge ?? true
        let count = modelCount
        var at = options.at
        if let position = at {
            at = position > count ? count : position < 0 ? Swift.max(0, position + count + 1) : position
        }
        let sortable = comparator != nil && at == nil && options.sort != false
        let sortAttribute = comparator?.attributeName

        // The lists are of `Model`, a concrete type: appending to an `[M]` goes through the
        // unspecialized generic `Array.append` wherever `M` is not known at compile time
        // (a collection of an app's model class, or of a relation's). Every element is an
        // `M`, and the lists become `[M]` again with ``downcast(_:)``.
        var result: [Model] = []
        result.reserveCapacity(inputs.count)
        var toAdd: [Model] = []
        var toMerge: [Model] = []
        // The input's order and membership matter only when missing models are removed.
        var order: [Model] = []
        var seen = IdentityTable(capacity: shouldRemove ? inputs.count : 0)
        if shouldRemove { order.reserveCapacity(inputs.count) }
        var needsSort = false
        // Read once: a generic class reaches its stored properties through its metadata.
        let forwarder = shouldAdd ? forwardingHandler : nil
        let idAttribute = M.idAttribute
        let modelOptions = forwarder.map { optionsForNewModels(options, forwarder: $0) } ?? options.change
        if shouldAdd {
            byID.reserveCapacity(count + inputs.count)
            byCID.reserveCapacity(count + inputs.count)
        }

        for input in inputs {
            if let existing = existingModel(for: input, idAttribute: idAttribute) {
                if shouldMerge, !input.isInstance(existing) {
                    merge(input, into: existing, options: options)
                    toMerge.append(existing)
                    if sortable && !needsSort {
                        needsSort = sortAttribute.map { existing.hasChanged($0) } ?? existing.hasChanged()
                    }
                }
                if shouldRemove && seen.insert(existing) { order.append(existing) }
                result.append(existing)
            } else if let forwarder {
                guard
                    let model = prepareModel(input, options: options, modelOptions: modelOptions, forwarder: forwarder)
                else { continue }
                toAdd.append(model)
                addReference(model, forwarder: forwarder)
                if shouldRemove {
                    seen.insert(model)
                    order.append(model)
                }
                result.append(model)
            }
        }

        var removed: [M] = []
        if shouldRemove {
            removed = removeModels(notIn: seen, options: options)
        }

        var orderChanged = false
        let added = Self.downcast(toAdd)
        if !order.isEmpty && !sortable && shouldAdd && shouldRemove {
            orderChanged = storage.count != order.count || Self.differ(Self.upcast(storage), order)
            if orderChanged { mutateModels { $0 = Self.downcast(order) } }
        } else if !added.isEmpty {
            if sortable { needsSort = true }
            insertModels(added, at: at)
        }
        if needsSort { sortModels() }
        return Update(
            result: Self.downcast(result),
            added: added,
            removed: removed,
            merged: Self.downcast(toMerge),
            at: at,
            reordered: needsSort || orderChanged
        )
    }

    // MARK: - References

    /// The present model that an input stands for.
    ///
    /// - Parameter idAttribute: `M.idAttribute`, read once per update.
    private func existingModel(for input: Input, idAttribute: String) -> Model? {
        switch input {
        case .model(let model):
            if let found = byCID[model.cidNumber] { return found }
            guard let id = indexKey(of: model) else { return nil }
            return indexed(id: id)
        case .attributes(let attributes):
            // The default `modelID`, without the call, in a collection that has no other.
            let key =
                isBaseCollection
                ? Model.identifier(attributes[idAttribute]) : modelID(for: attributes, idAttribute: idAttribute)
            guard let id = key else { return nil }
            return indexed(id: id)
        }
    }

    /// Builds (or adopts) the model for a new input; `nil` when validation rejects it.
    ///
    /// - Parameters:
    ///   - modelOptions: `options` with this collection as `collection`, made once per call
    ///     by ``optionsForNewModels(_:forwarder:)``.
    ///   - forwarder: The collection's ``forwardingHandler``.
    private func prepareModel(
        _ input: Input,
        options: UpdateOptions,
        modelOptions: ChangeOptions,
        forwarder: EventHandler
    ) -> Model? {
        switch input {
        case .model(let model):
            adopt(model, forwarder: forwarder)
            return model
        case .attributes(let attributes):
            let (model, error) = buildModel(attributes, options: options, modelOptions: modelOptions)
            return error == nil ? model : nil
        }
    }

    /// Merges an input into the present model with its id (a `set` with `merge`).
    private func merge(_ input: Input, into existing: Model, options: UpdateOptions) {
        var attributes = input.attributes
        if options.parse == true, case .attributes = input {
            attributes = existing.parse(.object(attributes), options: options.change) ?? [:]
        }
        _ = existing.apply(attributes, options: options.change)
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
        let (model, error) = buildModel(attributes, options: options, modelOptions: optionsForNewModels(options))
        return (unsafeDowncast(model, to: M.self), error)
    }

    /// ``makeModel(_:options:)`` with the options for new models at hand, typed `Model`: a
    /// generic `M?` or `(M, ValidationError?)` is copied through value witnesses where `M`
    /// is not known at compile time.
    private func buildModel(_ attributes: Attributes, options: UpdateOptions, modelOptions: ChangeOptions) -> (
        Model, ValidationError?
    ) {
        let model: Model
        if let factory {
            model = factory(attributes, modelOptions)
        } else {
            model = M(attributes, options: modelOptions)
        }
        guard options.validate == true, let error = model.validationError else { return (model, nil) }
        if options.change.reportsInvalid ?? !options.silent {
            dispatch(Event(name: "invalid", model: model, collection: self, error: error, options: options.change))
        }
        return (model, error)
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
