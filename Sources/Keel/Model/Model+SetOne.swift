import Observation

// MARK: - Setting one attribute

extension Model {
    /// `set` of one attribute (`set(_:_:)` by name or by typed key, and the subscripts):
    /// Backbone's `set` algorithm for a one-entry input, without building the input object.
    ///
    /// The value is compared in place with the one in the attribute's slot. A `set` that
    /// changes nothing returns at once when there is nothing to validate and the bookkeeping
    /// already says that nothing changed (the previous attributes are the current ones). A
    /// change writes the attributes, with the new value in its slot, into the storage that
    /// the attributes before last had (``ChangeRecord/spare``), the replaced previous storage
    /// becoming the next spare, and writes `changed` in place: a steady run of `set`s
    /// allocates and frees nothing. The events, validation, bookkeeping and Observation
    /// reports are those of ``applyToSlots(_:options:)`` for the input `[key: value]`. A model
    /// with relations, or without the attribute, takes the general path with that input.
    @inline(__always)
    func applyOne(_ key: String, _ value: JSONValue, options: ChangeOptions) -> Bool {
        guard let slot = oneAttributeSlot(of: key) else { return applyAsInput(key, value, options: options) }
        return applyOne(key, value, at: slot, options: options)
    }

    /// The slot that a one-attribute `set` of `key` writes, or `nil` when it must take the
    /// general path: the model has relations (whose attributes merge into related models) or
    /// does not have the attribute.
    @inline(__always)
    func oneAttributeSlot(of key: String) -> Int? {
        guard storedExtras?.relationLinks == nil else { return nil }
        // The layout is lent: finding a slot calls no user code.
        return Unmanaged.passUnretained(layout)._withUnsafeGuaranteedRef { $0.slot(of: key) }
    }

    /// ``applyOne(_:_:options:)`` once ``oneAttributeSlot(of:)`` has found the attribute's slot.
    @inline(__always)
    func applyOne(_ key: String, _ value: JSONValue, at slot: Int, options: ChangeOptions) -> Bool {
        guard storage.match(ofValueAt: slot, with: value) == .different else {
            if options.validate != true, let record = storedChangeRecord, record.isSettled(at: storage) { return true }
            return keepOne(key, value, options: options)
        }
        return changeOne(key, value, at: slot, options: options)
    }

    /// `set(_:_:silent:validate:options:)` with every option at its default: what the typed
    /// accessors, which are inlinable, call for a change without flags or options, so that the
    /// caller passes no options and this call tests none of their flags.
    @usableFromInline @discardableResult
    func setWithDefaultOptions(_ key: String, _ value: JSONValue) -> Bool {
        applyOne(key, value, options: ChangeOptions())
    }

    /// ``applyOne(_:_:options:)`` by the general path, with the input `[key: value]`: kept out
    /// of line, so that the fast path builds no literal (and needs no stack protector).
    @inline(never)
    private func applyAsInput(_ key: String, _ value: JSONValue, options: ChangeOptions) -> Bool {
        apply([key: value], options: options)
    }

    /// ``applyOne(_:_:options:)`` for a value equal to the current one, when it must validate
    /// (`validate: true`) or start the bookkeeping of an outermost `set`.
    @inline(never)
    private func keepOne(_ key: String, _ value: JSONValue, options: ChangeOptions) -> Bool {
        let current = storage
        guard options.validate != true || passesUnchangedValidation(current, options: options) else { return false }
        let record = changeRecord
        if record.isChanging {
            record.record(key, value)
        } else {
            record.start(from: current)
        }
        return true
    }

    /// ``applyOne(_:_:options:)`` for a value that differs from the one in `slot`.
    @inline(never)
    private func changeOne(_ key: String, _ value: JSONValue, at slot: Int, options: ChangeOptions) -> Bool {
        // The record is created once and kept for the model's life, so it is lent.
        let record = Unmanaged.passUnretained(changeRecord)
        let current = storage
        var prospective = record._withUnsafeGuaranteedRef { $0.takeSpare() }
        prospective.assign(copying: current, settingValue: value, at: slot)
        if options.validate ?? true, !passesValidation(prospective, options: options) {
            record._withUnsafeGuaranteedRef { $0.spare = prospective }
            return false
        }

        let wasChanging = record._withUnsafeGuaranteedRef { record in
            let wasChanging = record.isChanging
            record.isChanging = true
            if wasChanging {
                record.record(key, value)
            } else {
                // The previous attributes are the current ones, so `changed` is this entry alone.
                record.replacePrevious(with: current)
                record.setChanged(only: key, value)
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
        commit(prospective, changingSlot: slot)

        if StringIdentity.equal(key, idAttribute) {
            let previousID = storedID
            storedID = Self.identifier(storage[idAttribute])
            if previousID != storedID && hasHandlers {
                dispatch(Event(name: "changeId", model: self, previousID: previousID, options: options))
            }
        }
        if options.silent { return true }
        // No handler runs between here and the `change:<key>` event, so this holds for it; the
        // `change` events look at the handlers again (``changeEventTarget(named:)``).
        let hasHandlers = self.hasHandlers
        record._withUnsafeGuaranteedRef { $0.pendingOptions = options }
        if hasHandlers { dispatchChangeEvent(atSlot: slot, options: options) }
        if wasChanging { return true }
        record._withUnsafeGuaranteedRef { dispatchPendingChanges(of: $0, hasHandlers: hasHandlers) }
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
    @inline(__always)
    private func commit(_ newStorage: consuming Attributes, changingSlot slot: Int) {
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
