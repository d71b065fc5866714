extension Collection {
    // MARK: - Updating the models

    /// What ``updateModels(inputs:options:)`` did, for the events that follow.
    struct Update {
        /// The models that correspond to the input, in input order.
        var result: [M]
        /// The models added, in input order.
        var added: [M]
        /// The models removed, in collection order.
        var removed: [M]
        /// The models merged into, in input order.
        var merged: [M]
        /// Where the added models were inserted, when not at the comparator's places.
        var at: Int?
        /// Whether the order changed by a sort or by taking the input's order.
        var reordered: Bool
    }

    /// The part of `set` that changes the models and indexes, and fires only the merges'
    /// `change` events and the `remove` events.
    func updateModels(inputs: CollectionInputs, options: UpdateOptions) -> Update {
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
        var modelOptions = forwarder.map { optionsForNewModels(options, forwarder: $0) } ?? options.change
        // A factory through an identity map makes room in the map's table once.
        if forwarder != nil && factory != nil { modelOptions.expectedBuildCount = inputs.count }
        var pass = UpdatePass(
            options: options,
            modelOptions: modelOptions,
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

        // Each kind of input is read in place from the caller's array; an attribute map is
        // copied out once, and handed on to the model built from it.
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
            removed = removeModels(
                notIn: pass.lists.seen,
                expectedCount: Swift.max(0, count - pass.lists.foundCount),
                options: options
            )
            pass.lists.seen.finish()
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
            pass.lists.find(consume existing)
        } else if pass.adds {
            let model = buildModel(attributes, modelOptions: pass.modelOptions)
            if pass.validates && validationFailure(of: model, options: pass.options) != nil { return }
            pass.forwarder.unsafelyUnwrapped._withUnsafeGuaranteedRef { addReference(model, forwarder: $0) }
            pass.lists.add(consume model)
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
        let integerID: Int?? = attributes.withUnsafeKeys { keys in
            guard let position = keys.position(of: idAttribute) else { return .some(nil) }
            guard case .int(let integer) = attributes.valueAddress(at: position).pointee else { return nil }
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
