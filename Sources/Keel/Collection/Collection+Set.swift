extension Collection {
    // MARK: - Smart update

    /// Updates the collection to hold exactly the given models: adds new ones, merges into
    /// present ones and removes missing ones (each step can be turned off).
    ///
    /// Events, in order: the merged models' `change` events, `remove` for each removed
    /// model, `add` for each added one, `sort` if the order changed, then one `update`.
    /// Without a comparator, the collection takes the order of the input.
    ///
    /// ```swift
    /// notes.set([["id": 1, "title": "Groceries"], ["id": 4, "title": "New"]])
    /// notes.set([["id": 5]], remove: false)
    /// ```
    ///
    /// - Parameters:
    ///   - attributes: One attributes object per model.
    ///   - add: Add models that are not present.
    ///   - remove: Remove models that are not in the input.
    ///   - merge: Merge attributes into present models.
    ///   - at: Where to insert new models; overrides the comparator.
    ///   - silent: Suppresses every event.
    ///   - options: Further options (`parse`, `validate`, `sort`, custom values).
    /// - Returns: The models that correspond to the input, in input order.
    /// - Complexity: O(*n* + *k*) for *k* inputs and *n* models, plus the sort.
    @discardableResult
    public func set(
        _ attributes: [Attributes],
        add: Bool = true,
        remove: Bool = true,
        merge: Bool = true,
        at: Int? = nil,
        silent: Bool = false,
        options: UpdateOptions = UpdateOptions()
    ) -> [M] {
        let read = inputs(from: attributes, options: options)
        return read.sent.give(
            to: set(
                inputs: read.inputs,
                options: smartOptions(options, add: add, remove: remove, merge: merge, at: at, silent: silent)
            )
        )
    }

    /// Updates the collection to hold exactly the given models; see
    /// ``set(_:add:remove:merge:at:silent:options:)-(_,_,_,_,_,_,_)``.
    ///
    /// ```swift
    /// notes.set([groceries, taxes])
    /// ```
    ///
    /// - Parameters:
    ///   - models: The models.
    ///   - add: Add models that are not present.
    ///   - remove: Remove models that are not in the input.
    ///   - merge: Copy attributes into present models with the same ids.
    ///   - at: Where to insert new models.
    ///   - silent: Suppresses every event.
    ///   - options: Further options.
    /// - Returns: The models that correspond to the input, in input order.
    /// - Complexity: O(*n* + *k*), plus the sort.
    @discardableResult
    @_disfavoredOverload
    public func set(
        _ models: [M],
        add: Bool = true,
        remove: Bool = true,
        merge: Bool = true,
        at: Int? = nil,
        silent: Bool = false,
        options: UpdateOptions = UpdateOptions()
    ) -> [M] {
        set(
            inputs: .models(Self.upcast(models)),
            options: smartOptions(options, add: add, remove: remove, merge: merge, at: at, silent: silent)
        )
    }

    /// Reads a server response as ``fetch(reset:options:)`` does and updates the collection as
    /// `set` does: the wire format (the collection's ``wireFormat``, else the model class's)
    /// finds the records and maps each one, then ``parse(_:options:)`` and each model's
    /// `parse` run.
    ///
    /// A response that does not fit the format goes to ``parse(_:options:)`` as it is.
    ///
    /// ```swift
    /// let json = try JSONValue(parsing: data)
    /// try notes.set(parsing: json)
    /// // Rails notes: `{"notes": [{"id": 1, "due_at": …}]}` gives notes with `dueAt`.
    /// ```
    ///
    /// - Parameters:
    ///   - response: The response body.
    ///   - add: Add models that are not present.
    ///   - remove: Remove models that are not in the response.
    ///   - merge: Merge attributes into present models.
    ///   - silent: Suppresses every event.
    ///   - options: Further options.
    /// - Returns: The models that correspond to the response.
    /// - Throws: ``CollectionError/unparsableResponse(_:)`` when `parse` returns `nil`; the
    ///   collection is left as it was.
    @discardableResult
    public func set(
        parsing response: JSONValue,
        add: Bool = true,
        remove: Bool = true,
        merge: Bool = true,
        silent: Bool = false,
        options: UpdateOptions = UpdateOptions()
    ) throws(CollectionError) -> [M] {
        var options = smartOptions(options, add: add, remove: remove, merge: merge, at: nil, silent: silent)
        options.parse = true
        options.change.nameReadDocument(response)
        let read = try parsedInputs(response, options: options)
        return read.sent.give(to: set(inputs: read.inputs, options: options))
    }

    private func smartOptions(
        _ options: UpdateOptions,
        add: Bool,
        remove: Bool,
        merge: Bool,
        at: Int?,
        silent: Bool
    ) -> UpdateOptions {
        var options = options
        options.add = options.add ?? add
        options.remove = options.remove ?? remove
        options.merge = options.merge ?? merge
        if let at { options.at = at }
        if silent { options.silent = true }
        return options
    }

    /// The inputs for attributes given to `add`, `set`, `reset` or an initializer: with
    /// `parse`, they are server records, read as a fetch reads a list (``appRecords(_:options:)``),
    /// then the collection's ``parse(_:options:)`` sees them as one JSON array (Backbone's
    /// `set` with `parse: true`), and a `nil` result means none.
    ///
    /// The records as given come along, for the models' ``Model/remoteAttributes``.
    func inputs(from attributes: [Attributes], options: UpdateOptions) -> ReadInputs {
        guard options.parse == true else { return ReadInputs(inputs: .attributes(attributes), sent: nil) }
        // The array is built straight from the attributes, without an `[JSONValue]` between.
        let body = JSONValue.array(JSONArray(attributes.lazy.map(JSONValue.object)))
        let records = appRecords(body, options: options)
        return ReadInputs(
            inputs: .attributes(parse(records, options: options) ?? []),
            sent: sentRecords(body, read: records, options: options)
        )
    }

    func parsedInputs(_ response: JSONValue, options: UpdateOptions) throws(CollectionError) -> ReadInputs {
        let records = appRecords(response, options: options)
        guard let attributes = parse(records, options: options) else {
            throw .unparsableResponse(response)
        }
        return ReadInputs(inputs: .attributes(attributes), sent: sentRecords(response, read: records, options: options))
    }

    /// The records of a server body as sent, beside those ``appRecords(_:options:)`` read
    /// from it; `nil` for a body a fetch has read already.
    private func sentRecords(_ body: JSONValue, read records: JSONValue, options: UpdateOptions) -> SentRecords? {
        guard !options.change.wireFormatApplied else { return nil }
        return SentRecords(body, read: records, format: wireFormat ?? M.wireFormat, modelType: M.self)
    }

    /// A server body's records in app form, as ``fetch(reset:options:)`` reads them: the
    /// collection's wire format (else the model class's) applied to the list, its envelope,
    /// root keys and every record (``Model/serverAttributes(from:format:options:)`` for one).
    ///
    /// A body that does not fit the format goes on as it is, to the collection's `parse`;
    /// ``WireFormat/decodeList(_:for:)`` reports why it does not fit. A body that a fetch has
    /// read already (``ChangeOptions/wireFormatApplied``) is returned as it is.
    func appRecords(_ body: JSONValue, options: UpdateOptions) -> JSONValue {
        guard !options.change.wireFormatApplied else { return body }
        return (try? (wireFormat ?? M.wireFormat).records(from: body, for: M.self)) ?? body
    }

    /// Backbone's `Collection.set`, with removal in one pass.
    ///
    /// User code runs in the middle (merges' `change` events, `remove` events, model
    /// initializers, the comparator), while the new models are indexed but not yet in
    /// order; a mutation of the collection from there is rejected.
    ///
    /// - Parameter alreadyMerged: Models merged before this call, given among the inputs as
    ///   themselves, that the `update` event counts as merged first (see
    ///   ``mergeInPlace(_:options:)``).
    @discardableResult
    func set(inputs: CollectionInputs, options: UpdateOptions, alreadyMerged: [Model] = []) -> [M] {
        guard admitsMutation() else { return [] }
        var options = options
        // Parsed inputs come through `appRecords`, which applied the wire format to them all:
        // the models run only their `parse`.
        if options.parse == true { options.change.wireFormatApplied = true }
        let update = whileUpdating {
            batchingHolds(expecting: inputs.count) { updateModels(inputs: inputs, options: options) }
        }
        if !options.silent {
            // Walked as `[Model]`: indexing an `[M]` is an unspecialized generic call wherever
            // `M` is not known at compile time.
            let toAdd = Self.upcast(update.added)
            if !toAdd.isEmpty {
                var audience = ModelEventAudience(named: "add", in: self)
                // The events share one context, built with the first: `nil` until then.
                var sharedContext: Event.Context?? = nil
                // Each model is asked where it lies (`toAdd` holds it): one copied out was
                // retained and released for every model of a large add that no one listens to.
                toAdd.withUnsafeBufferPointer { models in
                    for offset in models.indices {
                        let isUnheard = Unmanaged.passUnretained(models[offset])._withUnsafeGuaranteedRef {
                            audience.isEmpty(for: $0)
                        }
                        if isUnheard { continue }
                        let model = models[offset]
                        let context = sharedContext ?? Event.Context(collection: self, options: options.change)
                        sharedContext = context
                        model.dispatch(
                            Event(name: "add", model: model, index: update.at.map { $0 + offset }, context: context)
                        )
                        audience.refresh()
                    }
                }
            }
            if update.reordered {
                dispatch(Event(name: "sort", collection: self, options: options.change))
            }
            // Skip building the lists' event when no one listens.
            let merged = alreadyMerged.isEmpty ? Self.upcast(update.merged) : alreadyMerged + Self.upcast(update.merged)
            if hasHandlers && (!toAdd.isEmpty || !update.removed.isEmpty || !merged.isEmpty) {
                let changes = CollectionChanges(
                    added: toAdd,
                    removed: Self.upcast(update.removed),
                    merged: merged
                )
                dispatch(Event(name: "update", collection: self, changes: changes, options: options.change))
            }
        }
        return update.result
    }
}

extension Collection {
    /// Runs `body`, an update of up to `count` records, inside the collection's
    /// ``updateBatching``, if it has one.
    private func batchingHolds<Result>(expecting count: Int, _ body: () -> Result) -> Result {
        guard let updateBatching else { return body() }
        return updateBatching.batchingHolds(expecting: count, body)
    }

    /// Whether two lists of the same length hold different models at some position; an
    /// index loop over `[Model]`, which compiles to concrete code where a loop over `[M]`
    /// stays generic.
    static func differ(_ first: [Model], _ second: [Model]) -> Bool {
        for index in first.indices where first[index] !== second[index] { return true }
        return false
    }
}
