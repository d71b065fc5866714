/// What one collection `update` added, removed and merged.
///
/// ```swift
/// notes.on("update") { event in
///     print(event.changes?.added.count ?? 0, "added")
/// }
/// ```
public struct CollectionChanges {
    /// The models added, in the order they were added.
    public let added: [Model]
    /// The models removed.
    public let removed: [Model]
    /// The models that were matched by new attributes and merged (even when nothing changed).
    public let merged: [Model]

    /// Creates a change summary.
    ///
    /// ```swift
    /// let changes = CollectionChanges(added: [note], removed: [], merged: [])
    /// ```
    public init(added: [Model], removed: [Model], merged: [Model]) {
        self.added = added
        self.removed = removed
        self.merged = merged
    }
}
