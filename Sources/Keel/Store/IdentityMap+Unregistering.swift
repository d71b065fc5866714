// MARK: - Forgetting models

extension IdentityMap {
    /// Stops tracking a model in every collection it is registered for.
    ///
    /// ```swift
    /// map.unregister(note)
    /// ```
    ///
    /// - Parameter model: The model.
    /// - Complexity: O(*n*), where *n* is the number of entries.
    public func unregister(_ model: Model) {
        entries.removeAll { $0.holds(model) }
        model.removeHandlers { $0.isBookkeeping && $0.owner === self }
    }

    /// Forgets every model.
    ///
    /// ```swift
    /// map.removeAll()
    /// ```
    public func removeAll() {
        let models = entries.map(\.value.model)
        entries.removeAll()
        for model in models { model.removeHandlers { $0.isBookkeeping && $0.owner === self } }
    }
}
