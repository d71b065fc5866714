extension Collection: ModelEventForwarding {
    /// Re-emits a model's event on the collection, after keeping the collection consistent:
    /// a destroyed model is removed, and a changed id is re-indexed before any
    /// `change:<attribute>` handler runs.
    func forwardModelEvent(_ event: Event) {
        // Compared by their bits first: the names of the frequent events (`change:<key>`,
        // `change`) differ from these in their bits, which decides without a string comparison.
        let name = event.name
        if StringIdentity.equal(name, "add") || StringIdentity.equal(name, "remove") {
            if !event.isAbout(collection: self) { return }
        } else if StringIdentity.equal(name, "destroy") {
            if let model = event.model { remove(model, options: UpdateOptions(event.options)) }
        } else if StringIdentity.equal(name, "changeId") {
            if let model = event.model as? M { reindex(model, previousID: event.previousID) }
        }
        dispatch(event)
    }

    private func reindex(_ model: M, previousID: JSONValue?) {
        // With the default `modelID`, a key is the id attribute itself when it is not null:
        // the old keys are the previous attributes' id and `previousID`, without a copy of the
        // previous attributes that holds `previousID` (a create's new id is indexed so).
        if isBaseCollection {
            let idAttribute = model.idAttribute
            if let old = model.previousStorage[idAttribute], !old.isNull { byID.remove(model, forID: old) }
            if let old = previousID, !old.isNull { byID.remove(model, forID: old) }
            if let new = model.storage[idAttribute], !new.isNull { byID.insert(model, forID: new) }
            return
        }
        let previous = model.previousStorage
        var stale = previous
        if let previousID { stale[model.idAttribute] = previousID }
        for attributes in [previous, stale] {
            if let oldKey = modelID(for: attributes, idAttribute: model.idAttribute) {
                byID.remove(model, forID: oldKey)
            }
        }
        if let newKey = modelID(for: model.storage, idAttribute: model.idAttribute) {
            byID.insert(model, forID: newKey)
        }
    }
}

extension Event {
    /// Whether a collection acts on this event itself when one of its models forwards it
    /// (``Collection/forwardModelEvent(_:)``), besides re-emitting it: `add` and `remove`
    /// (re-emitted only when they are about another collection), `destroy` and `changeId`.
    ///
    /// Compared by their bits first, as in `forwardModelEvent`.
    var isActedOnByCollections: Bool {
        StringIdentity.equal(name, "add") || StringIdentity.equal(name, "remove")
            || StringIdentity.equal(name, "destroy") || StringIdentity.equal(name, "changeId")
    }
}
