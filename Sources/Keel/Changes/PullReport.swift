/// What one ``Store/pull(_:using:)`` did.
///
/// ```swift
/// let report = try await store.pull(Todo.self, using: .rails)
/// report.changes.count  // the records added, changed or removed
/// report.cursor         // where the next pull starts
/// ```
public struct PullReport: Sendable, Hashable {
    /// The changes the store applied, in order (repeated, late and locally held-back ones left out).
    public var changes: [RemoteChange]
    /// The cursor the next pull sends.
    public var cursor: String?
    /// Whether the pull read the whole collection: the first pull, or one whose cursor the
    /// server rejected.
    public var wasFullFetch: Bool

    /// Describes a pull.
    ///
    /// ```swift
    /// let nothing = PullReport(changes: [], cursor: "2026-05-01T12:00:00Z", wasFullFetch: false)
    /// ```
    ///
    /// - Parameters:
    ///   - changes: The applied changes.
    ///   - cursor: The next cursor.
    ///   - wasFullFetch: Whether the whole collection was read.
    public init(changes: [RemoteChange], cursor: String?, wasFullFetch: Bool) {
        self.changes = changes
        self.cursor = cursor
        self.wasFullFetch = wasFullFetch
    }
}
