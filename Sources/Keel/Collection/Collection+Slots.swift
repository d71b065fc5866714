// MARK: - Packed and slotted models

extension Collection {
    /// The models, in order, as an array; packs the slots first.
    var storage: [M] {
        packModels()
        return packed
    }

    /// How many models the collection holds.
    var modelCount: Int { slots?.count ?? packed.count }

    /// The model at `position`, which must be below ``modelCount``, without registering a read.
    func model(at position: Int) -> M {
        guard let slots else { return packed[position] }
        return unsafeDowncast(slots.model(at: position), to: M.self)
    }

    /// The last model, without registering a read.
    var lastModel: M? {
        guard let slots else { return packed.last }
        // Unwrapped here: `map` on an optional of `M` is an unspecialized generic call
        // (about 260 instructions a `pop`) wherever `M` is not known at compile time.
        guard let last = slots.last else { return nil }
        return unsafeDowncast(last, to: M.self)
    }

    /// Moves the models from ``slots`` back into ``packed``; the order does not change.
    func packModels() {
        guard let slots else { return }
        packed = slots.packed(as: M.self)
        self.slots = nil
    }

    /// Runs `body`, which changes the models without going through ``mutateModels(_:)``,
    /// telling Observation.
    private func notifyingObservers<Result>(_ body: () -> Result) -> Result {
        guard let observation else { return body() }
        observation.willSet()
        defer { observation.didSet() }
        return body()
    }

    /// Inserts models at `position` (`nil`: at the end); appending keeps the slots.
    func insertModels(_ models: [M], at position: Int?) {
        let count = modelCount
        // Into an empty collection the array itself is taken: inserting its elements one by one
        // copies each through value witnesses wherever `M` is not known at compile time.
        if count == 0 {
            mutateModels { $0 = models }
            return
        }
        guard slots != nil, position ?? count == count else {
            // One model at the end (a create's) is appended: `insert(contentsOf:at:)` goes
            // through its generic range replacement, about 2.5 k instructions for one model.
            if models.count == 1 && position ?? count == count {
                mutateModels { $0.append(models[0]) }
            } else {
                mutateModels { $0.insert(contentsOf: models, at: position ?? $0.count) }
            }
            return
        }
        notifyingObservers {
            for model in models { slots?.append(model) }
        }
    }

    /// Appends one model, as ``insertModels(_:at:)`` of `[model]` at the end does, without an
    /// array for it: a create adds its model so.
    func appendModel(_ model: M) {
        guard slots != nil else {
            mutateModels { $0.append(model) }
            return
        }
        notifyingObservers { slots?.append(model) }
    }

    /// Takes one model out of the order and returns the position it had; the indexes are
    /// left to the caller.
    ///
    /// The last model leaves the array in O(1). Any other model moves the models into
    /// ``slots`` (O(*n*), once), where it and later ones leave in O(log *n*), until
    /// something needs the models as an array again.
    ///
    /// - Returns: The model's position, or `nil` when it is not in the order.
    func removeFromOrder(_ model: M) -> Int? {
        if slots == nil {
            if packed.last === model {
                return notifyingObservers {
                    packed.removeLast()
                    return packed.count
                }
            }
            guard packed.count > 1 else { return nil }
            slots = ModelSlots(packed)
            packed = []
        }
        // Written out rather than through `notifyingObservers(_:)`: its closure cost every
        // removal a context and an indirect call.
        let position: Int??
        if let observation {
            observation.willSet()
            position = slots?.remove(model)
            observation.didSet()
        } else {
            position = slots?.remove(model)
        }
        if let slots, slots.isMostlyEmpty || slots.count == 0 { packModels() }
        return position ?? nil
    }
}

// MARK: - Position

extension Collection {
    /// The position of a model in the collection (Backbone's `indexOf`).
    ///
    /// ```swift
    /// notes.index(of: note)  // 0 for the first model
    /// ```
    ///
    /// - Parameter model: A model; another instance with the same id is not this model.
    /// - Returns: The position, or `nil` when the model is not in the collection.
    /// - Complexity: O(*n*); O(log *n*) after removals from the middle, until the
    ///   collection packs its models again.
    public func index(of model: Model) -> Int? {
        observeModels()
        if slots != nil { return slots?.position(of: model) }
        return packed.firstIndex { $0 === model }
    }
}
