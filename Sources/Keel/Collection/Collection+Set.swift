/// One element of the input of `add`, `set` and `reset`: a model or its attributes.
///
/// Not generic over the collection's model type, so that arrays of inputs are concrete
/// (fast) types; a `.model` input of a `Collection<M>` always holds an `M`.
enum CollectionInput {
    case model(Model)
    case attributes(Attributes)
}

extension Collection {
    typealias Input = CollectionInput

    // MARK: - Adding

    /// Adds a model built from attributes; see `set(_:add:remove:merge:at:silent:options:)`.
    ///
    /// A model whose id is already present is not added again; with `merge`, its
    /// attributes are merged into the present model.
    ///
    /// ```swift
    /// notes.add(["id": 3, "title": "Taxes"])
    /// notes.add(["id": 3, "title": "Taxes 2026"], merge: true)
    /// ```
    ///
    /// - Parameters:
    ///   - attributes: The new model's attributes.
    ///   - at: The position to insert at (negative counts from the end); overrides the
    ///     comparator.
    ///   - merge: Merge into a model with the same id instead of ignoring the input.
    ///   - silent: Suppresses the `add`, `sort` and `update` events.
    ///   - options: Further options (`validate: true` rejects invalid models).
    /// - Returns: The added or already present model; `nil` if validation rejected it.
    /// - Complexity: O(*n*) where *n* is the collection's size.
    @discardableResult
    public func add(
        _ attributes: Attributes,
        at: Int? = nil,
        merge: Bool = false,
        silent: Bool = false,
        options: UpdateOptions = UpdateOptions()
    ) -> M? {
        add(inputs: inputs(from: [attributes], options: options), at: at, merge: merge, silent: silent, options: options)
            .first
    }

    /// Adds models built from attributes, in one `update`.
    ///
    /// ```swift
    /// notes.add([["id": 1], ["id": 2]], at: 0)
    /// ```
    ///
    /// - Parameters:
    ///   - attributes: One attributes object per model.
    ///   - at: The position to insert at; overrides the comparator.
    ///   - merge: Merge into models with the same ids.
    ///   - silent: Suppresses events.
    ///   - options: Further options.
    /// - Returns: The added or present models, in input order, without rejected ones.
    /// - Complexity: O(*n* + *k*) for *k* inputs into *n* models.
    @discardableResult
    public func add(
        _ attributes: [Attributes],
        at: Int? = nil,
        merge: Bool = false,
        silent: Bool = false,
        options: UpdateOptions = UpdateOptions()
    ) -> [M] {
        add(inputs: inputs(from: attributes, options: options), at: at, merge: merge, silent: silent, options: options)
    }

    /// Adds a model.
    ///
    /// ```swift
    /// notes.add(Note(["title": "Taxes"]))
    /// ```
    ///
    /// - Parameters:
    ///   - model: The model; it joins this collection (``Model/collection`` is set if it
    ///     has none).
    ///   - at: The position to insert at; overrides the comparator.
    ///   - merge: Copy its attributes into a present model with the same id.
    ///   - silent: Suppresses events.
    ///   - options: Further options.
    /// - Returns: The added model, or the present one with the same id.
    @discardableResult
    public func add(
        _ model: M,
        at: Int? = nil,
        merge: Bool = false,
        silent: Bool = false,
        options: UpdateOptions = UpdateOptions()
    ) -> M? {
        add(inputs: [.model(model)], at: at, merge: merge, silent: silent, options: options).first
    }

    /// Adds models, in one `update`.
    ///
    /// ```swift
    /// notes.add([groceries, taxes])
    /// ```
    ///
    /// - Parameters:
    ///   - models: The models.
    ///   - at: The position to insert at; overrides the comparator.
    ///   - merge: Copy attributes into present models with the same ids.
    ///   - silent: Suppresses events.
    ///   - options: Further options.
    /// - Returns: The added or present models, in input order.
    /// - Complexity: O(*n* + *k*) for *k* inputs into *n* models.
    @discardableResult
    @_disfavoredOverload
    public func add(
        _ models: [M],
        at: Int? = nil,
        merge: Bool = false,
        silent: Bool = false,
        options: UpdateOptions = UpdateOptions()
    ) -> [M] {
        add(inputs: models.map { Input.model($0) }, at: at, merge: merge, silent: silent, options: options)
    }

    /// Appends a model at the end, never sorting (Backbone's `push`).
    ///
    /// ```swift
    /// notes.push(["title": "Last"])
    /// ```
    ///
    /// - Parameters:
    ///   - attributes: The new model's attributes.
    ///   - options: Further options.
    /// - Returns: The added or present model.
    @discardableResult
    public func push(_ attributes: Attributes, options: UpdateOptions = UpdateOptions()) -> M? {
        add(attributes, at: modelCount, options: options)
    }

    /// Appends a model at the end, never sorting.
    ///
    /// ```swift
    /// notes.push(note)
    /// ```
    ///
    /// - Parameters:
    ///   - model: The model.
    ///   - options: Further options.
    /// - Returns: The added or present model.
    @discardableResult
    public func push(_ model: M, options: UpdateOptions = UpdateOptions()) -> M? {
        add(model, at: modelCount, options: options)
    }

    /// Inserts a model at the front, never sorting (Backbone's `unshift`).
    ///
    /// ```swift
    /// notes.unshift(["title": "First"])
    /// ```
    ///
    /// - Parameters:
    ///   - attributes: The new model's attributes.
    ///   - options: Further options.
    /// - Returns: The added or present model.
    @discardableResult
    public func unshift(_ attributes: Attributes, options: UpdateOptions = UpdateOptions()) -> M? {
        add(attributes, at: 0, options: options)
    }

    /// Inserts a model at the front, never sorting.
    ///
    /// ```swift
    /// notes.unshift(note)
    /// ```
    ///
    /// - Parameters:
    ///   - model: The model.
    ///   - options: Further options.
    /// - Returns: The added or present model.
    @discardableResult
    public func unshift(_ model: M, options: UpdateOptions = UpdateOptions()) -> M? {
        add(model, at: 0, options: options)
    }

    private func add(inputs: [Input], at: Int?, merge: Bool, silent: Bool, options: UpdateOptions) -> [M] {
        var options = options
        options.add = true
        options.remove = false
        if options.merge == nil || merge { options.merge = merge }
        if let at { options.at = at }
        if silent { options.silent = true }
        return set(inputs: inputs, options: options)
    }

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
        let parsed = parse(.array(attributes.map(JSONValue.object)), options: options) ?? []
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
    @discardableResult
    func set(inputs: [Input], options: UpdateOptions) -> [M] {
        guard admitsMutation() else { return [] }
        let update = whileUpdating { updateModels(inputs: inputs, options: options) }
        if !options.silent {
            let toAdd = update.added
            for offset in toAdd.indices {
                let model = toAdd[offset]
                model.dispatch(
                    Event(
                        name: "add",
                        model: model,
                        collection: self,
                        index: update.at.map { $0 + offset },
                        options: options.change
                    )
                )
            }
            if update.reordered {
                dispatch(Event(name: "sort", collection: self, options: options.change))
            }
            // Converting the lists to `[Model]` costs a pass over them; skip it when no one
            // listens.
            if hasHandlers && (!toAdd.isEmpty || !update.removed.isEmpty || !update.merged.isEmpty) {
                let changes = CollectionChanges(added: toAdd, removed: update.removed, merged: update.merged)
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

        var result: [M] = []
        result.reserveCapacity(inputs.count)
        var toAdd: [M] = []
        var toMerge: [M] = []
        // The input's order and membership matter only when missing models are removed.
        var order: [M] = []
        var seen = Set<ObjectIdentifier>()
        if shouldRemove {
            order.reserveCapacity(inputs.count)
            seen.reserveCapacity(inputs.count)
        }
        var needsSort = false
        let modelOptions = shouldAdd ? optionsForNewModels(options) : options.change
        if shouldAdd {
            byID.reserveCapacity(count + inputs.count)
            byCID.reserveCapacity(count + inputs.count)
        }

        for input in inputs {
            if let existing = existingModel(for: input) {
                if shouldMerge, !input.isInstance(existing) {
                    var attributes = input.attributes
                    if options.parse == true, case .attributes = input {
                        attributes = existing.parse(.object(attributes), options: options.change) ?? [:]
                    }
                    _ = existing.apply(attributes, options: options.change)
                    toMerge.append(existing)
                    if sortable && !needsSort {
                        needsSort = sortAttribute.map { existing.hasChanged($0) } ?? existing.hasChanged()
                    }
                }
                if shouldRemove && seen.insert(ObjectIdentifier(existing)).inserted { order.append(existing) }
                result.append(existing)
            } else if shouldAdd {
                guard let model = prepareModel(input, options: options, modelOptions: modelOptions) else { continue }
                toAdd.append(model)
                addReference(model)
                if shouldRemove {
                    seen.insert(ObjectIdentifier(model))
                    order.append(model)
                }
                result.append(model)
            }
        }

        var removed: [M] = []
        if shouldRemove {
            var missing: [M] = []
            for model in storage where !seen.contains(ObjectIdentifier(model)) { missing.append(model) }
            if !missing.isEmpty { removed = removeModels(missing, options: options) }
        }

        var orderChanged = false
        if !order.isEmpty && !sortable && shouldAdd && shouldRemove {
            orderChanged = storage.count != order.count || zip(storage, order).contains { $0 !== $1 }
            if orderChanged { mutateModels { $0 = order } }
        } else if !toAdd.isEmpty {
            if sortable { needsSort = true }
            insertModels(toAdd, at: at)
        }
        if needsSort { sortModels() }
        return Update(
            result: result,
            added: toAdd,
            removed: removed,
            merged: toMerge,
            at: at,
            reordered: needsSort || orderChanged
        )
    }

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
    /// - Complexity: O(1) for the last model. Otherwise O(log *n*), except that the first
    ///   removal from the middle costs O(*n*) once: the models move into slots that later
    ///   removals leave empty, until something needs them packed again (``models``, a sort,
    ///   an insertion before the end, or more empty slots than models).
    @discardableResult
    public func remove(_ model: Model, silent: Bool = false, options: UpdateOptions = UpdateOptions()) -> M? {
        remove(found: get(model).map { [$0] } ?? [], silent: silent, options: options).first
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
    /// - Complexity: As for removing a model: O(log *n*) amortised, O(1) for the last model.
    @discardableResult
    public func remove(_ id: JSONValue, silent: Bool = false, options: UpdateOptions = UpdateOptions()) -> M? {
        remove(found: get(id).map { [$0] } ?? [], silent: silent, options: options).first
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
        remove(found: models.compactMap { get($0) }, silent: silent, options: options)
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
        return remove(last, options: options)
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
        return remove(model(at: 0), options: options)
    }

    private func remove(found: [M], silent: Bool, options: UpdateOptions) -> [M] {
        guard admitsMutation() else { return [] }
        var options = options
        if silent { options.silent = true }
        let removed: [M]
        if found.count == 1 {
            removed = removeModel(found[0], options: options).map { [$0] } ?? []
        } else {
            removed = removeModels(found, options: options)
        }
        if !removed.isEmpty && !options.silent && hasHandlers {
            let changes = CollectionChanges(added: [], removed: removed, merged: [])
            dispatch(Event(name: "update", collection: self, changes: changes, options: options.change))
        }
        return removed
    }

    /// Removes models in one pass, then fires `remove` for each with the index it would have
    /// had had they been removed one by one (Backbone's order), and detaches them.
    private func removeModels(_ models: [M], options: UpdateOptions) -> [M] {
        var wanted = Set<ObjectIdentifier>(minimumCapacity: models.count)
        for model in models { wanted.insert(ObjectIdentifier(model)) }
        var originalIndex: [ObjectIdentifier: Int] = [:]
        originalIndex.reserveCapacity(models.count)
        let current = storage
        var kept: [M] = []
        kept.reserveCapacity(current.count)
        for index in current.indices {
            let model = current[index]
            if wanted.contains(ObjectIdentifier(model)) {
                originalIndex[ObjectIdentifier(model)] = index
            } else {
                kept.append(model)
            }
        }
        guard !originalIndex.isEmpty else { return [] }
        let total = current.count
        mutateModels { $0 = kept }

        var removed: [M] = []
        removed.reserveCapacity(originalIndex.count)
        for model in models where originalIndex[ObjectIdentifier(model)] != nil {
            // Taking each model out of `wanted` lists a model given twice only once.
            if wanted.remove(ObjectIdentifier(model)) != nil { removed.append(model) }
        }
        for model in removed { unindex(model) }

        var alreadyRemoved = FenwickTree(count: total)
        for model in removed {
            let index = originalIndex[ObjectIdentifier(model)] ?? 0
            let currentIndex = index - alreadyRemoved.prefixSum(upTo: index)
            alreadyRemoved.increment(at: index)
            if !options.silent {
                model.dispatch(
                    Event(name: "remove", model: model, collection: self, index: currentIndex, options: options.change)
                )
            }
            removeReference(model)
        }
        return removed
    }

    /// Removes one model as ``removeModels(_:options:)`` does, in O(log *n*) (O(1) for the
    /// last model) once the models are in slots.
    private func removeModel(_ model: M, options: UpdateOptions) -> M? {
        guard let index = removeFromOrder(model) else { return nil }
        unindex(model)
        if !options.silent {
            model.dispatch(Event(name: "remove", model: model, collection: self, index: index, options: options.change))
        }
        removeReference(model)
        return model
    }

    // MARK: - Reset

    /// Replaces every model at once, firing a single `reset` (no `add` or `remove`).
    ///
    /// ```swift
    /// notes.reset([["id": 1], ["id": 2]])
    /// notes.reset()  // empties the collection
    /// ```
    ///
    /// - Parameters:
    ///   - attributes: One attributes object per new model; new instances are always built.
    ///   - silent: Suppresses the `reset` event.
    ///   - options: Further options (`parse`, `validate`).
    /// - Returns: The new models.
    @discardableResult
    public func reset(_ attributes: [Attributes] = [], silent: Bool = false, options: UpdateOptions = UpdateOptions())
        -> [M]
    {
        var options = options
        if silent { options.silent = true }
        return reset(inputs: inputs(from: attributes, options: options), options: options)
    }

    /// Replaces every model with the given ones, firing a single `reset`.
    ///
    /// ```swift
    /// notes.reset([groceries, taxes])
    /// ```
    ///
    /// - Parameters:
    ///   - models: The new models.
    ///   - silent: Suppresses the `reset` event.
    ///   - options: Further options.
    /// - Returns: The models now in the collection.
    @discardableResult
    @_disfavoredOverload
    public func reset(_ models: [M], silent: Bool = false, options: UpdateOptions = UpdateOptions()) -> [M] {
        var options = options
        if silent { options.silent = true }
        return reset(inputs: models.map { Input.model($0) }, options: options)
    }

    /// Replaces every model with those parsed from a server response, firing one `reset`.
    ///
    /// ```swift
    /// try notes.reset(parsing: JSONValue(parsing: data))
    /// ```
    ///
    /// - Parameters:
    ///   - response: The response body, run through ``parse(_:options:)`` and each model's
    ///     `parse`.
    ///   - silent: Suppresses the `reset` event.
    ///   - options: Further options.
    /// - Returns: The new models.
    /// - Throws: ``CollectionError/unparsableResponse(_:)`` when `parse` returns `nil`; the
    ///   collection is left as it was.
    @discardableResult
    public func reset(parsing response: JSONValue, silent: Bool = false, options: UpdateOptions = UpdateOptions())
        throws(CollectionError)
        -> [M]
    {
        var options = options
        options.parse = true
        if silent { options.silent = true }
        return reset(inputs: try parsedInputs(response, options: options), options: options)
    }

    @discardableResult
    func reset(inputs: [Input], options: UpdateOptions) -> [M] {
        guard admitsMutation() else { return [] }
        let previous = storage
        byID.removeAll()
        byCID.removeAll()
        mutateModels { $0 = [] }
        for model in previous { removeReference(model) }
        var addOptions = options
        addOptions.silent = true
        addOptions.change.reportsInvalid = !options.silent
        addOptions.add = true
        addOptions.remove = false
        addOptions.merge = false
        let added = set(inputs: inputs, options: addOptions)
        if !options.silent && hasHandlers {
            dispatch(Event(name: "reset", collection: self, previousModels: previous, options: options.change))
        }
        return added
    }

    // MARK: - References

    private func existingModel(for input: Input) -> M? {
        switch input {
        case .model(let model):
            if let found = indexed(cidNumber: model.cidNumber) { return found }
            guard let id = modelID(for: model.storage, idAttribute: model.idAttribute) else { return nil }
            return indexed(id: id)
        case .attributes(let attributes):
            guard let id = modelID(for: attributes, idAttribute: M.idAttribute) else { return nil }
            return indexed(id: id)
        }
    }

    /// Builds (or adopts) the model for a new input; `nil` when validation rejects it.
    ///
    /// - Parameter modelOptions: `options` with this collection as `collection`, made once
    ///   per call by ``optionsForNewModels(_:)``.
    private func prepareModel(_ input: Input, options: UpdateOptions, modelOptions: ChangeOptions) -> M? {
        switch input {
        case .model(let model):
            if model.collection == nil { model.collection = self }
            return unsafeDowncast(model, to: M.self)
        case .attributes(let attributes):
            let (model, error) = makeModel(attributes, options: options, modelOptions: modelOptions)
            return error == nil ? model : nil
        }
    }

    /// The options new models are built with: `options` naming this collection.
    func optionsForNewModels(_ options: UpdateOptions) -> ChangeOptions {
        var modelOptions = options.change
        modelOptions.collection = self
        return modelOptions
    }

    /// Builds a model for attributes; with `validate: true`, also reports its validation
    /// error as `invalid` on the collection.
    func makeModel(_ attributes: Attributes, options: UpdateOptions, modelOptions: ChangeOptions? = nil) -> (
        M, ValidationError?
    ) {
        let modelOptions = modelOptions ?? optionsForNewModels(options)
        let model = factory?(attributes, modelOptions) ?? M(attributes, options: modelOptions)
        guard options.validate == true, let error = model.validationError else { return (model, nil) }
        if options.change.reportsInvalid ?? !options.silent {
            dispatch(Event(name: "invalid", model: model, collection: self, error: error, options: options.change))
        }
        return (model, error)
    }

    private func addReference(_ model: M) {
        byCID.insert(model, forKey: model.cidNumber)
        if let id = modelID(for: model.storage, idAttribute: model.idAttribute) { byID.insert(model, forID: id) }
        if model.collection == nil { model.collection = self }
        model.addForwarder(forwardingHandler)
    }

    private func unindex(_ model: M) {
        byCID.remove(model, forKey: model.cidNumber)
        if let id = modelID(for: model.storage, idAttribute: model.idAttribute) { byID.remove(model, forID: id) }
    }

    private func removeReference(_ model: M) {
        model.removeForwarder(self)
        // A `remove` handler may have added the model again, with a forwarder of its own.
        if model.collection === self && indexed(cidNumber: model.cidNumber) !== model { model.collection = nil }
    }
}

extension CollectionInput {
    var attributes: Attributes {
        switch self {
        case .model(let model): return model.storage
        case .attributes(let attributes): return attributes
        }
    }

    func isInstance(_ model: Model) -> Bool {
        if case .model(let input) = self { return input === model }
        return false
    }
}
