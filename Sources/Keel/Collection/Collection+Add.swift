extension Collection {

    // MARK: - Adding

    /// Adds a model built from attributes; see `set(_:add:remove:merge:at:silent:options:)`.
    ///
    /// A model whose id is already present is not added again; with `merge`, its
    /// attributes are merged into the present model.
    ///
    /// ```swift
    /// notes.add(["id": 3, "title": "Taxes"])
    /// notes.add(["id": 3, "title": "Taxes 2026"], merge: true)
    /// ```
    ///
    /// - Parameters:
    ///   - attributes: The new model's attributes.
    ///   - at: The position to insert at (negative counts from the end); overrides the
    ///     comparator.
    ///   - merge: Merge into a model with the same id instead of ignoring the input.
    ///   - silent: Suppresses the `add`, `sort` and `update` events.
    ///   - options: Further options (`validate: true` rejects invalid models).
    /// - Returns: The added or already present model; `nil` if validation rejected it.
    /// - Complexity: O(*n*) where *n* is the collection's size.
    @discardableResult
    public func add(
        _ attributes: Attributes,
        at: Int? = nil,
        merge: Bool = false,
        silent: Bool = false,
        options: UpdateOptions = UpdateOptions()
    ) -> M? {
        let read = inputs(from: [attributes], options: options)
        let models = add(inputs: read.inputs, at: at, merge: merge, silent: silent, options: options)
        return read.sent.give(to: models).first
    }

    /// Adds models built from attributes, in one `update`.
    ///
    /// ```swift
    /// notes.add([["id": 1], ["id": 2]], at: 0)
    /// ```
    ///
    /// - Parameters:
    ///   - attributes: One attributes object per model.
    ///   - at: The position to insert at; overrides the comparator.
    ///   - merge: Merge into models with the same ids.
    ///   - silent: Suppresses events.
    ///   - options: Further options.
    /// - Returns: The added or present models, in input order, without rejected ones.
    /// - Complexity: O(*n* + *k*) for *k* inputs into *n* models.
    @discardableResult
    public func add(
        _ attributes: [Attributes],
        at: Int? = nil,
        merge: Bool = false,
        silent: Bool = false,
        options: UpdateOptions = UpdateOptions()
    ) -> [M] {
        let read = inputs(from: attributes, options: options)
        return read.sent.give(to: add(inputs: read.inputs, at: at, merge: merge, silent: silent, options: options))
    }

    /// Adds a model.
    ///
    /// ```swift
    /// notes.add(Note(["title": "Taxes"]))
    /// ```
    ///
    /// - Parameters:
    ///   - model: The model; it joins this collection (``Model/collection`` is set if it
    ///     has none).
    ///   - at: The position to insert at; overrides the comparator.
    ///   - merge: Copy its attributes into a present model with the same id.
    ///   - silent: Suppresses events.
    ///   - options: Further options.
    /// - Returns: The added model, or the present one with the same id.
    @discardableResult
    public func add(
        _ model: M,
        at: Int? = nil,
        merge: Bool = false,
        silent: Bool = false,
        options: UpdateOptions = UpdateOptions()
    ) -> M? {
        add(inputs: .models([model]), at: at, merge: merge, silent: silent, options: options).first
    }

    /// Adds models, in one `update`.
    ///
    /// ```swift
    /// notes.add([groceries, taxes])
    /// ```
    ///
    /// - Parameters:
    ///   - models: The models.
    ///   - at: The position to insert at; overrides the comparator.
    ///   - merge: Copy attributes into present models with the same ids.
    ///   - silent: Suppresses events.
    ///   - options: Further options.
    /// - Returns: The added or present models, in input order.
    /// - Complexity: O(*n* + *k*) for *k* inputs into *n* models.
    @discardableResult
    @_disfavoredOverload
    public func add(
        _ models: [M],
        at: Int? = nil,
        merge: Bool = false,
        silent: Bool = false,
        options: UpdateOptions = UpdateOptions()
    ) -> [M] {
        add(inputs: .models(Self.upcast(models)), at: at, merge: merge, silent: silent, options: options)
    }

    /// Appends a model at the end, never sorting (Backbone's `push`).
    ///
    /// ```swift
    /// notes.push(["title": "Last"])
    /// ```
    ///
    /// - Parameters:
    ///   - attributes: The new model's attributes.
    ///   - options: Further options.
    /// - Returns: The added or present model.
    @discardableResult
    public func push(_ attributes: Attributes, options: UpdateOptions = UpdateOptions()) -> M? {
        add(attributes, at: modelCount, options: options)
    }

    /// Appends a model at the end, never sorting.
    ///
    /// ```swift
    /// notes.push(note)
    /// ```
    ///
    /// - Parameters:
    ///   - model: The model.
    ///   - options: Further options.
    /// - Returns: The added or present model.
    @discardableResult
    public func push(_ model: M, options: UpdateOptions = UpdateOptions()) -> M? {
        add(model, at: modelCount, options: options)
    }

    /// Inserts a model at the front, never sorting (Backbone's `unshift`).
    ///
    /// ```swift
    /// notes.unshift(["title": "First"])
    /// ```
    ///
    /// - Parameters:
    ///   - attributes: The new model's attributes.
    ///   - options: Further options.
    /// - Returns: The added or present model.
    @discardableResult
    public func unshift(_ attributes: Attributes, options: UpdateOptions = UpdateOptions()) -> M? {
        add(attributes, at: 0, options: options)
    }

    /// Inserts a model at the front, never sorting.
    ///
    /// ```swift
    /// notes.unshift(note)
    /// ```
    ///
    /// - Parameters:
    ///   - model: The model.
    ///   - options: Further options.
    /// - Returns: The added or present model.
    @discardableResult
    public func unshift(_ model: M, options: UpdateOptions = UpdateOptions()) -> M? {
        add(model, at: 0, options: options)
    }

    private func add(inputs: CollectionInputs, at: Int?, merge: Bool, silent: Bool, options: UpdateOptions) -> [M] {
        var options = options
        options.add = true
        options.remove = false
        if options.merge == nil || merge { options.merge = merge }
        if let at { options.at = at }
        if silent { options.silent = true }
        return set(inputs: inputs, options: options)
    }
}
