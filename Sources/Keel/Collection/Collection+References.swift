// MARK: - References

extension Collection {
    /// Indexes a new model and makes this collection forward its events.
    ///
    /// - Parameter forwarder: The collection's ``forwardingHandler``, read once per update.
    func addReference(_ model: Model, forwarder: EventHandler) {
        byCID.insert(model, forKey: model.cidNumber)
        // An integer id is matched in place, without copying the cached id out.
        if isBaseCollection, case .int(let integer)? = model.storedID {
            byID.insert(model, forInteger: integer)
        } else if let id = indexKey(of: model) {
            byID.insert(model, forID: id)
        }
        adopt(model, forwarder: forwarder)
        model.addForwarder(forwarder)
    }

    func unindex(_ model: Model) {
        byCID.remove(model, forKey: model.cidNumber)
        // An integer id is matched in place, without copying the cached id out.
        if isBaseCollection, case .int(let integer)? = model.storedID {
            byID.remove(model, forInteger: integer)
        } else if let id = indexKey(of: model) {
            byID.remove(model, forID: id)
        }
    }

    func removeReference(_ model: Model) {
        removeReference(model, forwarder: forwardingHandler, mayBeBack: true)
    }

    /// ``removeReference(_:)`` with the collection's ``forwardingHandler`` at hand, for a model
    /// that is no longer indexed; `mayBeBack` says whether user code (a `remove` handler) may
    /// have added it again since.
    ///
    /// Inlined, so that ``removeReference(_:)`` costs a lone removal no call of its own.
    @inline(__always)
    func removeReference(_ model: Model, forwarder: EventHandler, mayBeBack: Bool) {
        model.removeForwarder(forwarder)
        // A `remove` handler may have added the model again, with a forwarder of its own.
        if model.collectionForwarder === forwarder && (!mayBeBack || indexed(cidNumber: model.cidNumber) !== model) {
            model.collectionForwarder = nil
        }
    }

    /// Makes this collection the model's ``Model/collection`` unless it has a live one.
    func adopt(_ model: Model) {
        adopt(model, forwarder: forwardingHandler)
    }

    /// ``adopt(_:)`` with the collection's ``forwardingHandler`` at hand.
    ///
    /// A model built for this collection already refers to it, which is decided without
    /// loading the reference.
    func adopt(_ model: Model, forwarder: EventHandler) {
        if model.collectionForwarder !== forwarder && model.collection == nil {
            model.setCollectionForwarder(forwarder)
        }
    }
}
