public import Keel

extension IdentityMap {
    /// Brings the live models of a replay's records up to date: a temporary id becomes the
    /// server's (the map follows the model to its new id), rewritten foreign keys and the
    /// server's attributes are set, and each model's `syncState` is updated, with the
    /// usual `change`, `changeId` and `syncState` events.
    ///
    /// Records no live model holds are skipped.
    ///
    /// ```swift
    /// let report = try await cache.replay()
    /// map.apply(report)
    /// note.id         // 7 (was "local-1")
    /// note.syncState  // .synced
    /// ```
    ///
    /// - Parameter report: A report from `CachingSync/replay()`.
    /// - Complexity: O(*n*) for *n* records in the report, plus the cost of setting their
    ///   attributes.
    public func apply(_ report: ReplayReport) {
        for update in report.records {
            guard let model = existing(Model.self, id: .string(update.id), in: update.collection) else { continue }
            if let attributes = update.attributes {
                model.set(attributes)
                if update.state == .synced { model.markSynced() }
            }
            model.setSyncState(update.state)
        }
    }
}
