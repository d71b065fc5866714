extension Collection {
    // MARK: - Reset

    /// Replaces every model at once, firing a single `reset` (no `add` or `remove`).
    ///
    /// ```swift
    /// notes.reset([["id": 1], ["id": 2]])
    /// notes.reset()  // empties the collection
    /// ```
    ///
    /// - Parameters:
    ///   - attributes: One attributes object per new model; new instances are always built.
    ///   - silent: Suppresses the `reset` event.
    ///   - options: Further options (`parse`, `validate`).
    /// - Returns: The new models.
    @discardableResult
    public func reset(_ attributes: [Attributes] = [], silent: Bool = false, options: UpdateOptions = UpdateOptions())
        -> [M]
    {
        var options = options
        if silent { options.silent = true }
        let read = inputs(from: attributes, options: options)
        return read.sent.give(to: reset(inputs: read.inputs, options: options))
    }

    /// Replaces every model with the given ones, firing a single `reset`.
    ///
    /// ```swift
    /// notes.reset([groceries, taxes])
    /// ```
    ///
    /// - Parameters:
    ///   - models: The new models.
    ///   - silent: Suppresses the `reset` event.
    ///   - options: Further options.
    /// - Returns: The models now in the collection.
    @discardableResult
    @_disfavoredOverload
    public func reset(_ models: [M], silent: Bool = false, options: UpdateOptions = UpdateOptions()) -> [M] {
        var options = options
        if silent { options.silent = true }
        return reset(inputs: .models(Self.upcast(models)), options: options)
    }

    /// Replaces every model with those parsed from a server response, firing one `reset`.
    ///
    /// The response is read as ``fetch(reset:options:)`` reads one: the wire format (the
    /// collection's ``wireFormat``, else the model class's), then the parse hooks.
    ///
    /// ```swift
    /// try notes.reset(parsing: JSONValue(parsing: data))
    /// ```
    ///
    /// - Parameters:
    ///   - response: The response body, read through the wire format, ``parse(_:options:)``
    ///     and each model's `parse`.
    ///   - silent: Suppresses the `reset` event.
    ///   - options: Further options.
    /// - Returns: The new models.
    /// - Throws: ``CollectionError/unparsableResponse(_:)`` when `parse` returns `nil`; the
    ///   collection is left as it was.
    @discardableResult
    public func reset(parsing response: JSONValue, silent: Bool = false, options: UpdateOptions = UpdateOptions())
        throws(CollectionError)
        -> [M]
    {
        var options = options
        options.parse = true
        if silent { options.silent = true }
        options.change.nameReadDocument(response)
        let read = try parsedInputs(response, options: options)
        return read.sent.give(to: reset(inputs: read.inputs, options: options))
    }

    @discardableResult
    func reset(inputs: CollectionInputs, options: UpdateOptions) -> [M] {
        guard admitsMutation() else { return [] }
        let previous = storage
        byID.removeAll()
        byCID.removeAll()
        mutateModels { $0 = [] }
        for model in previous { removeReference(model) }
        var addOptions = options
        addOptions.silent = true
        addOptions.change.reportsInvalid = !options.silent
        addOptions.add = true
        addOptions.remove = false
        addOptions.merge = false
        let added = set(inputs: inputs, options: addOptions)
        if !options.silent && hasHandlers {
            dispatch(
                Event(name: "reset", collection: self, previousModels: Self.upcast(previous), options: options.change)
            )
        }
        return added
    }
}
