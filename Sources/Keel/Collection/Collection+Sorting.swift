extension Collection {
    /// Sorts the models with the ``comparator`` and fires `sort`.
    ///
    /// Collections do not re-sort when a model's attributes change; call this method then.
    ///
    /// The comparator must not change the collection: while it runs, the collection rejects
    /// `add`, `set`, `remove`, `reset` and `sort` (they return without changing anything),
    /// and the sort then throws ``CollectionError/reentrantMutation`` and leaves the order as
    /// it was.
    ///
    /// ```swift
    /// notes.comparator = .attribute("rank")
    /// try notes.sort()
    /// ```
    ///
    /// - Parameters:
    ///   - silent: Suppresses the `sort` event.
    ///   - options: Further options, passed to the event.
    /// - Throws: ``CollectionError/noComparator`` when there is no comparator, and
    ///   ``CollectionError/reentrantMutation`` when the comparator tried to change the
    ///   collection, or when called while the collection is sorting or updating.
    /// - Complexity: O(*n* log *n*).
    public func sort(silent: Bool = false, options: UpdateOptions = UpdateOptions()) throws(CollectionError) {
        guard let comparator else { throw .noComparator }
        guard admitsMutation() else { throw .reentrantMutation }
        rejectedMutation = false
        let order = whileUpdating { comparator.order(of: storage) }
        if rejectedMutation {
            rejectedMutation = false
            throw .reentrantMutation
        }
        mutateModels { ModelPermutation.apply(order, to: &$0) }
        if !silent && !options.silent {
            dispatch(Event(name: "sort", collection: self, options: options.change))
        }
    }

    /// Sorts without an event; the comparator cannot change the collection meanwhile.
    func sortModels() {
        guard let comparator else { return }
        let order = whileUpdating { comparator.order(of: storage) }
        mutateModels { ModelPermutation.apply(order, to: &$0) }
    }

    // MARK: - Re-entrancy

    /// Runs `body`, which calls user code while the models and indexes are being updated;
    /// any mutation of the collection meanwhile is rejected.
    func whileUpdating<Result>(_ body: () -> Result) -> Result {
        let wasUpdating = isUpdating
        isUpdating = true
        defer { isUpdating = wasUpdating }
        return body()
    }

    /// Whether a mutation may go ahead: not while the collection is updating.
    ///
    /// Records a rejection, which makes the sort in progress throw.
    func admitsMutation() -> Bool {
        guard isUpdating else { return true }
        rejectedMutation = true
        return false
    }
}
