extension Collection {
    /// Sorts the models with the ``comparator`` and fires `sort`.
    ///
    /// Collections do not re-sort when a model's attributes change; call this method then.
    ///
    /// ```swift
    /// notes.comparator = .attribute("rank")
    /// try notes.sort()
    /// ```
    ///
    /// - Parameters:
    ///   - silent: Suppresses the `sort` event.
    ///   - options: Further options, passed to the event.
    /// - Throws: ``CollectionError/noComparator`` when there is no comparator.
    /// - Complexity: O(*n* log *n*).
    public func sort(silent: Bool = false, options: UpdateOptions = UpdateOptions()) throws(CollectionError) {
        guard comparator != nil else { throw .noComparator }
        sortModels()
        if !silent && !options.silent {
            dispatch(Event(name: "sort", collection: self, options: options.change))
        }
    }

    /// Sorts without an event.
    func sortModels() {
        guard let comparator else { return }
        let sorted = comparator.sorted(storage)
        mutateModels { $0 = sorted }
    }
}
