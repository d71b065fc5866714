extension Collection {
    /// The model at `index`; a negative index counts from the end.
    ///
    /// ```swift
    /// notes.at(0)   // the first model
    /// notes.at(-1)  // the last model
    /// ```
    ///
    /// - Parameter index: The position.
    /// - Returns: The model, or `nil` when the index is out of range.
    /// - Complexity: O(1); O(log *n*) after removals from the middle, until the collection
    ///   packs its models again.
    public func at(_ index: Int) -> M? {
        observeModels()
        let count = modelCount
        let position = index < 0 ? count + index : index
        return position >= 0 && position < count ? model(at: position) : nil
    }

    /// The models from `start` up to, not including, `end`, with JavaScript's rules:
    /// negative positions count from the end and out-of-range ones are clamped.
    ///
    /// ```swift
    /// notes.slice(1, 3)
    /// notes.slice(-2)  // the last two
    /// ```
    ///
    /// - Parameters:
    ///   - start: The first position.
    ///   - end: The position after the last, or `nil` for the end.
    /// - Returns: The models, as an array.
    public func slice(_ start: Int = 0, _ end: Int? = nil) -> [M] {
        observeModels()
        let count = storage.count
        func clamp(_ position: Int) -> Int {
            position < 0 ? Swift.max(0, count + position) : Swift.min(position, count)
        }
        let lower = clamp(start)
        let upper = clamp(end ?? count)
        return lower < upper ? Array(storage[lower..<upper]) : []
    }

    /// The value of one attribute of every model.
    ///
    /// ```swift
    /// notes.pluck("title")  // ["Groceries", "Taxes"]
    /// ```
    ///
    /// With an ``AttributeKey`` (`notes.pluck(Note.title)`), it gives Swift values instead.
    ///
    /// - Parameter key: The attribute's name.
    /// - Returns: One value per model, `nil` where a model does not have it.
    public func pluck(_ key: String) -> [JSONValue?] {
        models.map { $0.get(key) }
    }

    /// The value of one attribute of every model, as Swift values.
    ///
    /// Each value is read as `model[key]` reads it: `nil` where a model does not have the
    /// attribute or holds JSON of another type, so the result has one element per model, as
    /// Backbone's `pluck` has. Swift prints an array of optionals as `[Optional("Milk")]`;
    /// `compactMap { $0 }` leaves the values that are there.
    ///
    /// ```swift
    /// let titles = todos.pluck(Todo.title)   // [String?]: ["Milk", "Bread"]
    /// print(titles.compactMap { $0 })         // ["Milk", "Bread"]
    /// ```
    ///
    /// - Parameter key: The typed attribute key.
    /// - Returns: One value per model, in collection order.
    /// - Complexity: O(*n*) for *n* models.
    public func pluck<Value>(_ key: AttributeKey<Value>) -> [Value?] {
        models.map { $0[key] }
    }

    /// The models whose attributes equal every given value.
    ///
    /// ```swift
    /// let open = notes.where(["done": false])
    /// ```
    ///
    /// - Parameter attributes: The values a model must have; empty matches every model.
    /// - Returns: The matching models, in collection order.
    /// - Complexity: O(*n* × *k*) for *n* models and *k* attributes.
    public func `where`(_ attributes: Attributes) -> [M] {
        models.filter { $0.matches(attributes) }
    }

    /// The first model whose attributes equal every given value.
    ///
    /// ```swift
    /// let taxes = notes.findWhere(["title": "Taxes"])
    /// ```
    ///
    /// - Parameter attributes: The values the model must have.
    /// - Returns: The first match, or `nil`.
    /// - Complexity: O(*n* × *k*).
    public func findWhere(_ attributes: Attributes) -> M? {
        models.first { $0.matches(attributes) }
    }

    /// The attributes of every model, as sent to a server.
    ///
    /// ```swift
    /// let body = JSONValue.array(notes.toJSON().map(JSONValue.object))
    /// ```
    ///
    /// - Parameter options: Passed to each model's ``Model/toJSON(options:)``.
    public func toJSON(options: ChangeOptions = ChangeOptions()) -> [Attributes] {
        models.map { $0.toJSON(options: options) }
    }

    /// A new collection of the same class with the same models, comparator and factory.
    ///
    /// ```swift
    /// let copy = notes.clone()
    /// ```
    ///
    /// - Returns: A collection holding the same model instances.
    public func clone() -> Self {
        let copy = Self(storage, comparator: comparator, factory: factory, url: url, sync: sync)
        copy.baseURL = baseURL
        return copy
    }
}
