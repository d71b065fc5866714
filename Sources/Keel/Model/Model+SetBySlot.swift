// MARK: - Setting by slot

extension Model {
    /// ``applyMerged(_:options:)`` for a `set` that removes nothing: each key's slot is found and
    /// its value compared once, the entries that change (and those naming keys the model lacks)
    /// are kept as ``PositionSet``s for the change bookkeeping, Observation and the events, and
    /// the new values are written by slot into one copy of the storage, the new keys appended
    /// after the kept ones in input order.
    ///
    /// Returns `nil`, having changed nothing, when the input has more entries than a
    /// ``PositionSet`` holds.
    ///
    /// When the input is the whole of the new storage (see
    /// ``SlotScan/inputIsStorage(_:adding:changing:current:layout:)``), as a create's answer that
    /// echoes the sent attributes and adds the new id is, it becomes the storage as it is,
    /// without a copy; when it changes every entry it names, it is `changed` as it is.
    func applyToSlots(_ attributes: Attributes, options: ChangeOptions) -> Bool? {
        guard attributes.count <= PositionSet.capacity else { return nil }
        let current = storage
        var added = PositionSet()
        // The layout is lent: nothing here calls user code.
        let changes = Unmanaged.passUnretained(layout)._withUnsafeGuaranteedRef { layout in
            SlotScan.changes(of: attributes, in: current, layout: layout, added: &added)
        }
        guard !changes.isEmpty else { return applyNoChange(attributes, current: current, options: options) }

        let prospective = Unmanaged.passUnretained(layout)._withUnsafeGuaranteedRef { layout in
            if SlotScan.inputIsStorage(attributes, adding: added, changing: changes, current: current, layout: layout) {
                return attributes
            }
            var prospective = current
            if !added.isEmpty { prospective.reserveCapacity(current.count + added.count) }
            for position in changes {
                let key = attributes.keyAddress(at: position)
                let value = attributes.valueAddress(at: position)
                if added.contains(position) {
                    prospective.appendUnchecked(key.pointee, value.pointee)
                } else {
                    prospective.setValue(value.pointee, at: layout.slot(of: key.pointee) ?? 0)
                }
            }
            return prospective
        }
        if options.validate ?? true, !passesValidation(prospective, options: options) { return false }

        // The record is created once and kept for the model's life, so it is lent: to the
        // bookkeeping here, to the `change` events below.
        let record = Unmanaged.passUnretained(changeRecord)
        let wasChanging = record._withUnsafeGuaranteedRef { record in
            let wasChanging = record.isChanging
            record.isChanging = true
            if wasChanging {
                record.record(attributes, unsetting: false)
            } else {
                // The previous attributes are the current ones, so `changed` is what differs:
                // the input itself when every entry changes, else its changed entries, kept as
                // positions and copied out only if someone reads them.
                record.previous = current
                if changes.count == attributes.count {
                    record.setChanged(toAll: attributes)
                } else {
                    record.setChanged(at: changes, of: attributes)
                }
            }
            return wasChanging
        }
        defer {
            if !wasChanging {
                record._withUnsafeGuaranteedRef { record in
                    record.pendingOptions = nil
                    record.isChanging = false
                }
            }
        }
        if !added.isEmpty {
            // The layout of the new keys, found before the commit: Observation's key paths of
            // the added attributes are its slots'.
            let grown = layout.matching(prospective)
            if !hasRegistrar {
                storage = prospective
                layout = grown
            } else {
                commit(prospective, changes: changes, of: attributes, layout: grown, replacingLayout: true)
            }
        } else if !hasRegistrar {
            storage = prospective
        } else {
            Unmanaged.passUnretained(layout)._withUnsafeGuaranteedRef { layout in
                commit(prospective, changes: changes, of: attributes, layout: layout)
            }
        }

        // Only an input whose id changes can change the cached id: an id equal to the current
        // one leaves the stored value as it was.
        if record._withUnsafeGuaranteedRef({ changesIDAttribute(changes, of: attributes, record: $0) }) {
            let previousID = storedID
            storedID = Self.identifier(storage[idAttribute])
            if previousID != storedID && hasHandlers {
                dispatch(Event(name: "changeId", model: self, previousID: previousID, options: options))
            }
        }
        if !options.silent {
            record._withUnsafeGuaranteedRef { $0.pendingOptions = options }
            if hasHandlers {
                for position in changes {
                    dispatchChangeEvent(for: attributes.keyAddress(at: position).pointee, options: options)
                }
            }
        }
        if wasChanging { return true }
        if !options.silent {
            record._withUnsafeGuaranteedRef { dispatchPendingChanges(of: $0, hasHandlers: hasHandlers) }
        }
        return true
    }

    /// Whether one of the entries of `attributes` at `changes` is the id attribute.
    @inline(__always)
    private func changesIDAttribute(_ changes: PositionSet, of attributes: Attributes, record: ChangeRecord) -> Bool {
        for position in changes where record.isIDAttribute(attributes.keyAddress(at: position).pointee) {
            return true
        }
        return false
    }

    /// ``applyToSlots(_:options:)`` for a `set` that changes no value: it validates only
    /// when asked to, and starts no change unless one is in progress.
    private func applyNoChange(_ attributes: Attributes, current: Attributes, options: ChangeOptions) -> Bool {
        guard options.validate != true || passesUnchangedValidation(current, options: options) else { return false }
        // A model whose `set`s have changed nothing yet shares the record that says so (its
        // previous attributes are its current ones) instead of allocating its own.
        guard let record = storedChangeRecord else {
            storedChangeRecord = ChangeRecord.followingStorage
            return true
        }
        if record.followsStorage { return true }
        if record.isChanging {
            record.record(attributes, unsetting: false)
        } else {
            record.start(from: current)
        }
        return true
    }
}
