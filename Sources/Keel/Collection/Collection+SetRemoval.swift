extension Collection {
    // MARK: - Removing what a smart set left out

    /// Removes the models that `seen` did not find (those a smart `set` leaves out), as
    /// ``removeModels(_:options:)`` does.
    ///
    /// They are found in collection order, so each one's `remove` index (its position had
    /// they been removed one by one) is the number of kept models before it
    /// (``RemovalIndexes``): the tables that put a list in any order back in collection order
    /// are not needed.
    ///
    /// The kept models close up in the collection's own array, which no one else holds as a
    /// rule: without observers, the array is taken out of the collection for the pass (no user
    /// code runs until it is back), so that it is compacted in place rather than copied into a
    /// list of its own. With observers, a copy is compacted and set through
    /// ``mutateModels(_:)``, which tells them, only when something was removed.
    func removeModels(notIn seen: SeenModels, expectedCount: Int, options: UpdateOptions) -> [M] {
        packModels()
        let isObserved = observation != nil
        var models = Self.upcast(packed)
        if !isObserved { packed = [] }
        var removed: [Model] = []
        removed.reserveCapacity(expectedCount)
        var indexes = RemovalIndexes()
        Self.compact(&models, keeping: seen, removingInto: &removed, indexes: &indexes)
        if !isObserved { packed = Self.downcast(models) }
        guard !removed.isEmpty else { return [] }
        if isObserved { mutateModels { $0 = Self.downcast(models) } }
        for index in removed.indices { unindex(removed[index]) }

        var audience = options.silent ? nil : ModelEventAudience(named: "remove", in: self)
        let forwarder = forwardingHandler
        // Until a handler runs, no model can have been added back, so none needs looking up.
        var handlersRan = false
        // The events share one context, built with the first: `nil` until then.
        var sharedContext: Event.Context?? = nil
        // Each model is asked and unlinked where it lies (`removed` holds it); only one whose
        // `remove` someone hears is copied out, into its event.
        removed.withUnsafeBufferPointer { models in
            for offset in models.indices {
                let isUnheard = Unmanaged.passUnretained(models[offset])._withUnsafeGuaranteedRef {
                    audience?.isEmpty(for: $0) != false
                }
                if !isUnheard {
                    let model = models[offset]
                    let context = sharedContext ?? Event.Context(collection: self, options: options.change)
                    sharedContext = context
                    model.dispatch(
                        Event(name: "remove", model: model, index: indexes.index(at: offset), context: context)
                    )
                    audience?.refresh()
                    handlersRan = true
                }
                Unmanaged.passUnretained(models[offset])._withUnsafeGuaranteedRef {
                    removeReference($0, forwarder: forwarder, mayBeBack: handlersRan)
                }
            }
        }
        return Self.downcast(removed)
    }

    /// Closes up the models that `seen` found at the front of `models`, in order, and moves
    /// the others to `removed`, noting their `remove` indexes in `indexes`.
    ///
    /// A kept model is asked without a reference count and moved by a swap; only a removed one
    /// is copied, into `removed`, and released from `models` when its tail is cut.
    private static func compact(
        _ models: inout [Model],
        keeping seen: SeenModels,
        removingInto removed: inout [Model],
        indexes: inout RemovalIndexes
    ) {
        let keptCount = models.withUnsafeMutableBufferPointer { models in
            // The models in `keptCount..<index` are the ones removed so far.
            var keptCount = 0
            for index in models.indices {
                let isKept = Unmanaged.passUnretained(models[index])._withUnsafeGuaranteedRef {
                    seen.takeMark(of: $0)
                }
                if isKept {
                    if keptCount != index { models.swapAt(keptCount, index) }
                    keptCount += 1
                } else {
                    indexes.noteRemoval(at: removed.count, keptBefore: keptCount)
                    removed.append(models[index])
                }
            }
            return keptCount
        }
        if keptCount < models.count { models.removeLast(models.count - keptCount) }
    }
}
