import Observation

// MARK: - Setting one attribute

extension Model {
    /// `set` of one attribute (`set(_:_:)` by name or by typed key, and the subscripts):
    /// Backbone's `set` algorithm for a one-entry input, without building the input object.
    ///
    /// The value is compared in place with the one in the attribute's slot; a change writes it
    /// by slot into one copy of the storage (the replaced storage becomes `previous`) and reuses
    /// `changed`'s buffer. The events, validation, bookkeeping and Observation reports are those
    /// of ``applyToSlots(_:options:)`` for the input `[key: value]`. A model with relations, or
    /// without the attribute, takes the general path with that input.
    func applyOne(_ key: String, _ value: JSONValue, options: ChangeOptions) -> Bool {
        guard storedExtras?.relationLinks == nil, let slot = layout.slot(of: key) else {
            return apply([key: value], options: options)
        }
        let current = storage
        guard current.match(ofValueAt: slot, with: value) == .different else {
            guard options.validate != true || passesUnchangedValidation(current, options: options) else { return false }
            let record = changeRecord
            if record.isChanging {
                record.record(key, value)
            } else {
                record.start(from: current)
            }
            return true
        }
        var prospective = current
        prospective.setValue(value, at: slot)
        if options.validate ?? true, !passesValidation(prospective, options: options) { return false }

        let record = changeRecord
        let wasChanging = record.isChanging
        record.isChanging = true
        if wasChanging {
            record.record(key, value)
        } else {
            // The previous attributes are the current ones, so `changed` is this entry alone.
            record.previous = current
            record.changed.removeAll(keepingCapacity: true)
            record.changed.appendUnchecked(key, value)
        }
        defer {
            if !wasChanging {
                record.pendingOptions = nil
                record.isChanging = false
            }
        }
        commit(prospective, changingSlot: slot)

        if StringIdentity.equal(key, idAttribute) {
            let previousID = storedID
            storedID = Self.identifier(storage[idAttribute])
            if previousID != storedID && hasHandlers {
                dispatch(Event(name: "changeId", model: self, previousID: previousID, options: options))
            }
        }
        if !options.silent {
            record.pendingOptions = options
            if hasHandlers { dispatchChangeEvent(for: key, options: options) }
        }
        if wasChanging { return true }
        if !options.silent { dispatchPendingChanges(of: record, hasHandlers: hasHandlers) }
        return true
    }

    /// Validates the unchanged attributes of a `set` that changes nothing but asks for
    /// validation (`validate: true`), as Backbone does.
    func passesUnchangedValidation(_ current: Attributes, options: ChangeOptions) -> Bool {
        if let error = validationFailure(for: current, options: options) {
            reportInvalid(error, options: options)
            return false
        }
        setValidationError(nil)
        return true
    }

    /// Replaces the attributes with `newStorage`, which differs from them in `slot` only,
    /// telling Observation about that attribute and the whole attributes.
    private func commit(_ newStorage: Attributes, changingSlot slot: Int) {
        guard hasRegistrar, let registrar else {
            storage = newStorage
            return
        }
        let keyPath = layout.keyPaths[slot]
        registrar.willSet(self, keyPath: keyPath)
        registrar.willSet(self, keyPath: Self.attributesKeyPath)
        storage = newStorage
        registrar.didSet(self, keyPath: Self.attributesKeyPath)
        registrar.didSet(self, keyPath: keyPath)
    }
}
