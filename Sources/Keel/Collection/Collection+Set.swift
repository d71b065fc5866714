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
        set(
            inputs: inputs(from: attributes, options: options),
            options: smartOptions(options, add: add, remove: remove, merge: merge, at: at, silent: silent)
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

    /// Runs a server response through ``parse(_:options:)`` and each new model's `parse`,
    /// then updates the collection as `set` does.
    ///
    /// ```swift
    /// let json = try JSONValue(parsing: data)
    /// try notes.set(parsing: json)
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
        return set(inputs: try parsedInputs(response, options: options), options: options)
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
    /// `parse`, the collection's ``parse(_:options:)`` sees them first as one JSON array
    /// (Backbone's `set` with `parse: true`), and a `nil` result means none.
    func inputs(from attributes: [Attributes], options: UpdateOptions) -> CollectionInputs {
        guard options.parse == true else { return .attributes(attributes) }
        // The array is built straight from the attributes, without an `[JSONValue]` between.
        let parsed = parse(.array(JSONArray(attributes.lazy.map(JSONValue.object))), options: options) ?? []
        return .attributes(parsed)
    }

    func parsedInputs(_ response: JSONValue, options: UpdateOptions) throws(CollectionError) -> CollectionInputs {
        guard let attributes = parse(response, options: options) else {
            throw .unparsableResponse(response)
        }
        return .attributes(attributes)
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
        let update = whileUpdating { updateModels(inputs: inputs, options: options) }
        if !options.silent {
            // Walked as `[Model]`: indexing an `[M]` is an unspecialized generic call wherever
            // `M` is not known at compile time.
            let toAdd = Self.upcast(update.added)
            if !toAdd.isEmpty {
                var audience = ModelEventAudience(named: "add", in: self)
                for offset in toAdd.indices {
                    let model = toAdd[offset]
                    if audience.isEmpty(for: model) { continue }
                    model.dispatch(
                        Event(
                            name: "add",
                            model: model,
                            collection: self,
                            index: update.at.map { $0 + offset },
                            options: options.change
                        )
                    )
                    audience.refresh()
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
    /// Whether two lists of the same length hold different models at some position; an
    /// index loop over `[Model]`, which compiles to concrete code where a loop over `[M]`
    /// stays generic.
    static func differ(_ first: [Model], _ second: [Model]) -> Bool {
        for index in first.indices where first[index] !== second[index] { return true }
        return false
    }
}
