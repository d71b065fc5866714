// MARK: - Setting by slot

extension Model {
    /// ``applyMerged(_:options:)`` for a `set` of attributes the model already has, which
    /// keeps the layout: each key's slot is found once per loop, the new values are written
    /// by slot into one copy of the storage, and Observation is told through the layout's
    /// key paths. Returns `nil`, having changed nothing, when the model lacks one of the keys.
    func applyToSlots(_ attributes: Attributes, options: ChangeOptions) -> Bool? {
        let layout = layout
        let current = storage
        var prospective = Attributes()
        var changes = 0
        for (key, value) in attributes {
            guard let slot = layout.slot(of: key) else { return nil }
            if current.value(at: slot) != value {
                if changes == 0 { prospective = current }
                changes += 1
                prospective.setValue(value, at: slot)
            }
        }
        guard changes > 0 else { return applyNoChange(attributes, current: current, options: options) }

        if options.validate ?? true, !passesValidation(prospective, options: options) { return false }

        let wasChanging = isChanging
        isChanging = true
        defer {
            if !wasChanging {
                pendingOptions = nil
                isChanging = false
            }
        }
        if wasChanging {
            recordChanges(attributes, unsetting: false)
        } else {
            // The previous attributes are the current ones, so `changed` is what differs.
            previousStorage = current
            changedStorage.removeAll(keepingCapacity: true)
            for (key, value) in attributes where current.value(at: layout.slot(of: key) ?? 0) != value {
                changedStorage[key] = value
            }
        }
        commit(prospective, changedBy: attributes, from: current, layout: layout)

        if attributes.contains(idAttribute) {
            let previousID = storedID
            storedID = Self.identifier(storage[idAttribute])
            if previousID != storedID && hasHandlers {
                dispatch(Event(name: "changeId", model: self, previousID: previousID, options: options))
            }
        }
        if !options.silent {
            pendingOptions = options
            if hasHandlers {
                for (key, value) in attributes where current.value(at: layout.slot(of: key) ?? 0) != value {
                    dispatch(changeEvent(for: key, options: options))
                }
            }
        }
        if wasChanging { return true }
        if !options.silent {
            while let pending = pendingOptions {
                pendingOptions = nil
                if hasHandlers { dispatch(Event(changeNamed: "change", model: self, value: nil, options: pending)) }
            }
        }
        return true
    }

    /// ``applyToSlots(_:options:)`` for a `set` that changes no value: it validates only
    /// when asked to, and starts no change unless one is in progress.
    private func applyNoChange(_ attributes: Attributes, current: Attributes, options: ChangeOptions) -> Bool {
        if options.validate == true {
            if let error = validationFailure(for: current, options: options) {
                reportInvalid(error, options: options)
                return false
            }
            setValidationError(nil)
        }
        if isChanging {
            recordChanges(attributes, unsetting: false)
        } else {
            previousStorage = current
            changedStorage.removeAll(keepingCapacity: true)
        }
        return true
    }
}
