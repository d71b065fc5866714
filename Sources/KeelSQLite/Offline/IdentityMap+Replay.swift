public import Keel

extension IdentityMap {
    /// Brings the live models of a replay's records up to date: a temporary id becomes the
    /// server's (the map follows the model to its new id), rewritten foreign keys and the
    /// server's attributes are set (a JSON:API resource object read by the model's format),
    /// and each model's `syncState` is updated, with the usual `change`, `changeId` and
    /// `syncState` events.
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
                model.set(Self.appAttributes(attributes, of: model))
                if update.state == .synced { model.markSynced() }
            }
            model.setSyncState(update.state)
        }
    }

    /// A stored record as the model's attributes: a JSON:API resource object (`type`,
    /// `attributes`, `relationships`) read by the model's format; any other record as it is.
    private static func appAttributes(_ record: Attributes, of model: Model) -> Attributes {
        let format = Swift.type(of: model).wireFormat
        guard format.jsonAPIFormat != nil, record["type"]?.stringValue != nil,
            let read = try? format.record(from: ["data": .object(record)], for: Swift.type(of: model)).objectValue
        else { return record }
        return read
    }
}
