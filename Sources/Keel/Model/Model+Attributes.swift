import Observation

// MARK: - Writing

extension Model {
    /// Changes attributes, firing `change:<attribute>` for each one that changed and then
    /// one `change`.
    ///
    /// The change is validated first (unless `validate` is `false`); an invalid change is
    /// rejected as a whole, ``validationError`` is set, and either the options'
    /// ``ChangeOptions/onValidationError`` handler runs or the model emits `invalid` and then
    /// `error`. With `silent`, no event fires and no error is reported, though an invalid
    /// change is still rejected.
    ///
    /// Sets made by handlers during the events coalesce as in Backbone: their
    /// `change:<attribute>` events fire at once, and the outermost `set` fires `change`
    /// again while handlers keep changing the model.
    ///
    /// With ``ChangeOptions/parse`` the attributes are a record as the server sends it, read as
    /// ``fetch(options:)`` reads one: the wire format (the collection's, else the class's
    /// ``wireFormat``), then ``parse(_:options:)``. A record that does not fit the format goes
    /// to `parse` as it is.
    ///
    /// ```swift
    /// note.set(["title": "Errands", "done": true])
    /// note.set(["title": "x"], silent: true)
    /// note.set(["note": ["due_at": "2026-12-01"]], options: ChangeOptions(parse: true))  // a Rails note
    /// ```
    ///
    /// - Parameters:
    ///   - attributes: The attributes to change.
    ///   - silent: Suppresses events and error reporting.
    ///   - validate: `false` skips validation for this call; `true` validates even when
    ///     nothing changes.
    ///   - options: Further options, passed to hooks and events.
    /// - Returns: `false` when validation rejected the change.
    ///
    /// A dictionary literal goes to ``set(_:)-(KeyValuePairs<String,JSONValue>)``, which does the
    /// same without building an `Attributes` value first; this overload takes a value you
    /// already have.
    @discardableResult @_disfavoredOverload
    public func set(
        _ attributes: Attributes,
        silent: Bool = false,
        validate: Bool? = nil,
        options: ChangeOptions = ChangeOptions()
    ) -> Bool {
        var options = options.with(silent: silent, validate: validate)
        guard options.parse == true else {
            // One attribute the model has takes the one-attribute path (`set(_:_:)`), which
            // is this algorithm for a one-entry input without its general bookkeeping.
            if attributes.count == 1, !options.unset,
                let slot = oneAttributeSlot(of: attributes.keyAddress(at: 0).pointee)
            {
                // An equal value with nothing to validate or record returns here, compared in
                // place: copying the entry out retains and releases its key and value.
                if options.validate != true,
                    storage.match(ofValueAt: slot, withValueAt: 0, in: attributes) != .different,
                    let record = storedChangeRecord, record.isSettled(at: storage)
                {
                    return true
                }
                return applyOne(
                    attributes.keyAddress(at: 0).pointee,
                    attributes.valueAddress(at: 0).pointee,
                    at: slot,
                    options: options
                )
            }
            return apply(attributes, options: options)
        }
        let parsed = parsedInput(attributes, options: options) ?? [:]
        options.wireFormatApplied = true
        return apply(parsed, options: options)
    }

    /// Changes the attributes written in a dictionary literal; see
    /// ``set(_:silent:validate:options:)-(Attributes,_,_,_)``, whose events, validation and
    /// bookkeeping it shares.
    ///
    /// The literal is read as it is written, without building an ``Attributes`` value: one
    /// attribute is set as ``set(_:_:silent:validate:options:)-(String,_,_,_,_)`` sets it, and
    /// a longer literal becomes one `Attributes` value (a later duplicate key replaces the
    /// earlier value in the earlier position, as in an `Attributes` literal).
    ///
    /// ```swift
    /// note.set(["title": "Errands"])
    /// note.set(["title": "Errands", "done": true])
    /// ```
    ///
    /// - Parameter attributes: The attributes to change, in the order written.
    /// - Returns: `false` when validation rejected the change.
    @inlinable @discardableResult
    public func set(_ attributes: KeyValuePairs<String, JSONValue>) -> Bool {
        guard attributes.count == 1 else { return set(pairs: attributes) }
        let (key, value) = attributes[attributes.startIndex]
        return setWithDefaultOptions(key, value)
    }

    /// Changes the attributes written in a dictionary literal, with flags or options; see
    /// ``set(_:)-(KeyValuePairs<String,JSONValue>)``.
    ///
    /// ```swift
    /// note.set(["title": "x"], silent: true)
    /// note.set(["note": ["due_at": "2026-12-01"]], options: ChangeOptions(parse: true))  // a Rails note
    /// ```
    ///
    /// - Parameters:
    ///   - attributes: The attributes to change, in the order written.
    ///   - silent: Suppresses events and error reporting.
    ///   - validate: `false` skips validation for this call; `true` validates even when
    ///     nothing changes.
    ///   - options: Further options, passed to hooks and events.
    /// - Returns: `false` when validation rejected the change.
    @inlinable @discardableResult
    public func set(
        _ attributes: KeyValuePairs<String, JSONValue>,
        silent: Bool = false,
        validate: Bool? = nil,
        options: ChangeOptions = ChangeOptions()
    ) -> Bool {
        guard attributes.count == 1 else {
            return set(pairs: attributes, silent: silent, validate: validate, options: options)
        }
        let (key, value) = attributes[attributes.startIndex]
        return set(key, value, silent: silent, validate: validate, options: options)
    }

    /// A literal of other than one attribute, as one ``Attributes`` value: kept out of line, so
    /// that the inlined one-attribute path stays small.
    @usableFromInline @discardableResult
    func set(
        pairs: KeyValuePairs<String, JSONValue>,
        silent: Bool = false,
        validate: Bool? = nil,
        options: ChangeOptions = ChangeOptions()
    ) -> Bool {
        set(Attributes(literal: pairs.map { ($0.key, $0.value) }), silent: silent, validate: validate, options: options)
    }

    /// Changes one attribute; see ``set(_:silent:validate:options:)-(Attributes,_,_,_)``.
    ///
    /// The same events, validation and bookkeeping as `set([key: value])`, without building
    /// that dictionary when the model already has the attribute.
    ///
    /// ```swift
    /// note.set("title", "Errands")
    /// ```
    ///
    /// - Parameters:
    ///   - key: The attribute's name.
    ///   - value: The new value.
    ///   - silent: Suppresses events and error reporting.
    ///   - validate: `false` skips validation for this call.
    ///   - options: Further options, passed to hooks and events.
    /// - Returns: `false` when validation rejected the change.
    @discardableResult
    public func set(
        _ key: String,
        _ value: JSONValue,
        silent: Bool = false,
        validate: Bool? = nil,
        options: ChangeOptions = ChangeOptions()
    ) -> Bool {
        // The options are copied only when a flag changes them.
        guard silent || validate != nil || options.parse == true else {
            return applyOne(key, value, options: options)
        }
        return set(key, value, options: options.with(silent: silent, validate: validate))
    }

    /// ``set(_:_:silent:validate:options:)`` with options that its flags changed, or that
    /// parse: kept out of line, so that the common call inlines one copy of the fast path.
    @inline(never)
    private func set(_ key: String, _ value: JSONValue, options: ChangeOptions) -> Bool {
        guard options.parse == true else { return applyOne(key, value, options: options) }
        // An `Attributes` value: a literal would take the `KeyValuePairs` overload, which
        // sends one attribute back here.
        let input: Attributes = [key: value]
        return set(input, options: options)
    }

    /// Removes an attribute, firing `change:<attribute>` (with a `nil` value) and `change`
    /// when it was present.
    ///
    /// ```swift
    /// note.unset("due")
    /// ```
    ///
    /// - Parameters:
    ///   - key: The attribute's name.
    ///   - silent: Suppresses events and error reporting.
    ///   - validate: `false` skips validation for this call.
    ///   - options: Further options, passed to hooks and events.
    /// - Returns: `false` when validation rejected the removal.
    @discardableResult
    public func unset(
        _ key: String,
        silent: Bool = false,
        validate: Bool? = nil,
        options: ChangeOptions = ChangeOptions()
    ) -> Bool {
        var options = options.with(silent: silent, validate: validate)
        options.unset = true
        return apply([key: .null], options: options)
    }

    /// Removes every attribute, firing one `change:<attribute>` per attribute and one `change`.
    ///
    /// Afterwards the model has no id and ``isNew`` is `true`.
    ///
    /// ```swift
    /// note.clear()
    /// ```
    ///
    /// - Parameters:
    ///   - silent: Suppresses events and error reporting.
    ///   - validate: `false` skips validation for this call.
    ///   - options: Further options, passed to hooks and events.
    /// - Returns: `false` when validation rejected the removal.
    @discardableResult
    public func clear(silent: Bool = false, validate: Bool? = nil, options: ChangeOptions = ChangeOptions()) -> Bool {
        var options = options.with(silent: silent, validate: validate)
        options.unset = true
        var keys = Attributes()
        for key in storage.keys { keys[key] = .null }
        return apply(keys, options: options)
    }

    /// Runs ``validate(_:options:)`` on the current attributes.
    ///
    /// Like Backbone's `isValid`, a failure is reported: ``validationError`` is set and
    /// `invalid` and `error` fire (or the options' handler runs).
    ///
    /// ```swift
    /// if !note.isValid() { print(note.validationError ?? "") }
    /// ```
    ///
    /// - Parameter options: ChangeOptions passed to `validate` and the events.
    /// - Returns: Whether the attributes are valid.
    @discardableResult
    public func isValid(options: ChangeOptions = ChangeOptions()) -> Bool {
        if let error = validationFailure(for: storage, options: options) {
            reportInvalid(error, options: options)
            return false
        }
        // A model without extras has never had an error to clear (every valid `set` clears
        // it): the call, which copies and compares errors, is skipped.
        if storedExtras != nil { setValidationError(nil) }
        return true
    }

    /// Backbone's `set` algorithm; see ``set(_:silent:validate:options:)-(Attributes,_,_,_)``.
    ///
    /// Allocation-conscious: the prospective attributes are built only when something
    /// changes (validation needs them beside the current ones), the previous attributes are
    /// the replaced storage itself, `changed` reuses its buffer, and the changed keys are
    /// recomputed from the input instead of collected.
    @discardableResult
    func apply(_ attributes: Attributes, options: ChangeOptions) -> Bool {
        if let links = storedExtras?.relationLinks, options.nested == nil {
            if !options.unset, let error = relationShapeErrors(attributes, links: links) {
                reportInvalid(error, options: options)
                return false
            }
            return applyMerged(mergeRelations(attributes, into: links, options: options), options: options)
        }
        return applyMerged(attributes, options: options)
    }

    /// ``apply(_:options:)`` once the relation attributes are merged into their models.
    private func applyMerged(_ attributes: Attributes, options: ChangeOptions) -> Bool {
        if !options.unset, let result = applyToSlots(attributes, options: options) { return result }
        let unsetting = options.unset
        let current = storage
        var prospective: Attributes?
        for (key, value) in attributes where Self.changes(current, key, value, unsetting: unsetting) {
            if prospective == nil { prospective = current }
            if unsetting {
                prospective?.removeValue(forKey: key)
            } else {
                prospective?[key] = value
            }
        }

        if options.validate ?? (prospective != nil), !passesValidation(prospective ?? current, options: options) {
            return false
        }

        let record = changeRecord
        let wasChanging = record.isChanging
        record.isChanging = true
        defer {
            if !wasChanging {
                record.pendingOptions = nil
                record.isChanging = false
            }
        }
        if !wasChanging { record.start(from: current) }
        // An outermost `set` that changes nothing leaves `changed` empty, and no id changed.
        let changesSomething = prospective != nil
        if changesSomething || wasChanging { record.record(attributes, unsetting: unsetting) }
        if let prospective { commit(prospective, changedBy: attributes, from: current, unsetting: unsetting) }

        if changesSomething && attributes.contains(idAttribute) {
            let previousID = storedID
            storedID = Self.identifier(storage[idAttribute])
            if previousID != storedID && hasHandlers {
                dispatch(Event(name: "changeId", model: self, previousID: previousID, options: options))
            }
        }
        if !options.silent && changesSomething {
            record.pendingOptions = options
            if hasHandlers {
                for (key, value) in attributes where Self.changes(current, key, value, unsetting: unsetting) {
                    dispatchChangeEvent(for: key, options: options)
                }
            }
        }
        if wasChanging { return true }
        if !options.silent { dispatchPendingChanges(of: record, hasHandlers: hasHandlers) }
        return true
    }

    /// Fires `change` for the outermost `set`, and again while handlers made further `set`s
    /// (Backbone's `_pending` loop), each with the options of the `set` that is pending.
    ///
    /// An event is built only when a handler will receive it (``EventEmitter/changeEventTarget(named:)``).
    @inline(__always)
    func dispatchPendingChanges(of record: ChangeRecord, hasHandlers: Bool) {
        // Taken out and moved into the event rather than copied and then cleared: the
        // options reach the event without a retain and a release of their out-of-line part.
        while let pending = record.pendingOptions.take() {
            guard hasHandlers else { continue }
            let target = changeEventTarget(named: "change")
            if case .nowhere = target { continue }
            dispatch(Event(changeNamed: "change", model: self, value: nil, options: consume pending), to: target)
        }
    }

    /// Fires the `change:<key>` event for an attribute that the current `set` changed, with
    /// its new value; the name comes from the layout's slot unless the attribute was removed.
    ///
    /// The event is built with the layout lent, and fired after: a handler may move the
    /// model to another layout. (Looking for a handler first, as ``dispatchChangeEvent(atSlot:context:)``
    /// does, cost `set_change` 2% more instructions than this dispatch's own lookup.)
    func dispatchChangeEvent(for key: String, options: ChangeOptions) {
        let event = Unmanaged.passUnretained(layout)._withUnsafeGuaranteedRef { layout in
            guard let slot = layout.slot(of: key) else {
                return Event(changeNamed: "change:" + key, model: self, value: nil, options: options)
            }
            return Event(
                changeNamed: layout.changeEventNames[slot],
                model: self,
                value: storage.value(at: slot),
                options: options
            )
        }
        dispatch(event)
    }

    /// Whether setting `key` to `value` (or unsetting it) changes `attributes`.
    static func changes(_ attributes: Attributes, _ key: String, _ value: JSONValue, unsetting: Bool) -> Bool {
        unsetting ? attributes.contains(key) : attributes[key] != value
    }

    /// The id a model has for an id attribute's value: `nil` for absent and `null`.
    static func identifier(_ value: JSONValue?) -> JSONValue? {
        guard let value, !value.isNull else { return nil }
        return value
    }
}
