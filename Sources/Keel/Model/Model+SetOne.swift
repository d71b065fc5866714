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
    ///
    /// A `set` of an integer that changes nothing, on a model whose bookkeeping is settled,
    /// returns from here in a few loads and comparisons (``leavesSettledModelUnchanged(_:_:)``);
    /// anything else continues out of line.
    @usableFromInline @discardableResult
    func setWithDefaultOptions(_ key: String, _ value: JSONValue) -> Bool {
        if leavesSettledModelUnchanged(key, value) { return true }
        return applyOneOutOfLine(key, value)
    }

    /// Whether a `set` of `key` to `value` without options would return at once.
    ///
    /// It would when the bookkeeping is settled (no `set` in progress, the previous attributes
    /// the current ones, nothing changed), the model has no relations, the key is found by its
    /// bits (``AttributeLayout/slot(ofSameBitsAs:)``) and the value is an equal integer
    /// (``JSONObject/hasInteger(at:equalTo:)``). `false` also when it cannot tell without a
    /// call: the general path decides then.
    ///
    /// The bookkeeping is tested first: after a change it is not settled, so a change pays
    /// a few loads here, and the registers it frees keep the rest from saving any.
    @inline(__always)
    private func leavesSettledModelUnchanged(_ key: String, _ value: JSONValue) -> Bool {
        guard let record = storedChangeRecord, record.isSettled(at: storage), storedExtras?.relationLinks == nil,
            case .int(let integer) = value
        else { return false }
        // Finding a slot by bits calls nothing, so the layout needs no reference count.
        guard let slot = layout.slot(ofSameBitsAs: key) else { return false }
        return storage.hasInteger(at: slot, equalTo: integer)
    }

    /// ``setWithDefaultOptions(_:_:)`` past its test for a `set` that changes nothing.
    @inline(never)
    private func applyOneOutOfLine(_ key: String, _ value: JSONValue) -> Bool {
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
    ///
    /// The storages move, none is copied: the new attributes are written into the spare
    /// storage, the current ones become the previous attributes and those the spare
    /// (``ChangeRecord/rotate(_:to:)``). With a registrar, out of line, the bookkeeping is
    /// updated before Observation hears of the change, as by the general path.
    @inline(__always)
    private func changeOne(_ key: String, _ value: JSONValue, at slot: Int, options: ChangeOptions) -> Bool {
        if storedChangeRecord?.followsStorage ?? true { _ = changeRecord }
        // The record is created once and kept for the model's life, so it is lent, and passed
        // on as an argument: the change itself is one call, not a call and a closure.
        return Unmanaged.passUnretained(storedChangeRecord.unsafelyUnwrapped)._withUnsafeGuaranteedRef { record in
            changeOne(key, value, at: slot, options: options, record: record)
        }
    }

    /// ``changeOne(_:_:at:options:)`` with the model's change record.
    @inline(never)
    private func changeOne(
        _ key: String,
        _ value: JSONValue,
        at slot: Int,
        options: ChangeOptions,
        record: ChangeRecord
    ) -> Bool {
        var prospective = record.takeSpare()
        // The current storage is lent: the model keeps it until the rotation below.
        guard let current = storage.lentStorage else {
            preconditionFailure("A set of a slot in empty attributes")
        }
        prospective.assign(copying: current, settingValue: value, at: slot)
        if options.validate ?? true, !passesValidation(prospective, options: options) {
            record.spare = prospective
            return false
        }

        let wasChanging = record.isChanging
        record.isChanging = true
        defer {
            if !wasChanging {
                // Nearly always `nil` by now: tested, so that clearing it calls no destroy.
                if case .some = record.pendingOptions { record.pendingOptions = nil }
                record.isChanging = false
            }
        }
        if hasRegistrar {
            commitObserved(&prospective, changingSlot: slot, key, value, in: record, wasChanging: wasChanging)
        } else if wasChanging {
            record.record(key, value)
            swap(&storage, &prospective)
        } else {
            record.rotate(&storage, to: &prospective)
            // The previous attributes are the current ones, so `changed` is this entry alone.
            record.setChanged(only: key, value)
        }

        if record.isIDAttribute(key) {
            let previousID = storedID
            storedID = Self.identifier(storage[idAttribute])
            if previousID != storedID && hasHandlers {
                dispatch(Event(name: "changeId", model: self, previousID: previousID, options: options))
            }
        }
        // Without a handler, no `change` event is built and no handler can start another `set`,
        // so the pending options are not needed.
        if options.silent || !hasHandlers { return true }
        // The events of this `set` share what they carry of its options.
        let context = Event.Context(options: options)
        if wasChanging {
            record.pendingOptions = options
            dispatchChangeEvent(atSlot: slot, context: context)
            return true
        }
        // The outermost `set`'s options are pending without being stored: they replace what an
        // observer's or a `changeId` handler's `set` made pending, as Backbone's
        // `_pending = options` does here, and give way to what a `change:<key>` handler's `set`
        // makes pending (``dispatchOutermostChange(atSlot:of:context:)``).
        dispatchOutermostChange(atSlot: slot, of: record, context: context)
        return true
    }

    /// The events of an outermost one-attribute `set` with handlers, in one call: `change:<key>`
    /// for the attribute in `slot`, then `change`, and `change` again while handlers made further
    /// `set`s (Backbone's `_pending` loop), each with the options of the `set` that is pending.
    ///
    /// The outermost `set`'s own options were not stored as pending: their event context,
    /// `context`, is pending unless a `change:<key>` handler's `set` made its own options pending
    /// since. What an observer's or a `changeId` handler's `set` made pending before is cleared
    /// first, as Backbone's `_pending = options` replaces it. Each event is built only when a
    /// handler will receive it (``EventEmitter/changeEventTarget(named:)``), and lent when the
    /// model's own handlers receive it (``lendChangeEvent(to:at:value:context:)``).
    @inline(never)
    private func dispatchOutermostChange(atSlot slot: Int, of record: ChangeRecord, context: consuming Event.Context?) {
        if case .some = record.pendingOptions { record.pendingOptions = nil }
        dispatchChangeEvent(atSlot: slot, context: context)
        var pending = context
        if let made = record.pendingOptions.take() { pending = Event.Context(options: made) }
        while true {
            switch changeEventTarget(named: "change") {
            case .nowhere:
                break
            case .handlers(let state, let position?):
                _withUnprotectedUnsafePointer(to: pending) {
                    lendChangeEvent(to: state, at: position, value: nil, context: $0)
                }
            case let target:
                dispatch(Event(changeNamed: "change", model: self, value: nil, context: consume pending), to: target)
            }
            guard let next = record.pendingOptions.take() else { return }
            pending = Event.Context(options: next)
        }
    }

    /// The commit of ``changeOne(_:_:at:options:)`` for a model with a registrar: the
    /// bookkeeping first, then the attributes replaced by `prospective` (which gets the
    /// replaced storage), telling Observation about the attribute in `slot` and the whole
    /// attributes.
    @inline(never)
    private func commitObserved(
        _ prospective: inout Attributes,
        changingSlot slot: Int,
        _ key: String,
        _ value: JSONValue,
        in record: ChangeRecord,
        wasChanging: Bool
    ) {
        if wasChanging {
            record.record(key, value)
        } else {
            record.replacePrevious(with: storage)
            record.setChanged(only: key, value)
        }
        guard let registrar else {
            swap(&storage, &prospective)
            return
        }
        let keyPath = layout.keyPaths[slot]
        registrar.willSet(self, keyPath: keyPath)
        registrar.willSet(self, keyPath: Self.attributesKeyPath)
        swap(&storage, &prospective)
        registrar.didSet(self, keyPath: Self.attributesKeyPath)
        registrar.didSet(self, keyPath: keyPath)
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
}
