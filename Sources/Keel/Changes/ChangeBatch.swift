/// Changes to the records of one collection, with the cursor that follows them: what one
/// incremental pull or one pushed message brings.
///
/// A backend that keeps a local copy (``ChangeReceiving``) stores the changes and the
/// cursor together, so an app that restarts continues from the cursor and applies nothing
/// twice.
///
/// ```swift
/// let batch = ChangeBatch(
///     collection: "/todos",
///     changes: [RemoteChange(.deleted, id: 7)],
///     cursor: "2026-05-01T12:00:00Z",
///     feed: "pull:/todos"
/// )
/// ```
public struct ChangeBatch: Sendable, Hashable {
    /// The collection path of the records, such as `/todos`.
    public var collection: String
    /// The changes, in the order the server made them.
    public var changes: [RemoteChange]
    /// Where the next pull or reconnection starts: a timestamp, a token or an event id;
    /// `nil` keeps the cursor already stored.
    public var cursor: String?
    /// The name the cursor is kept under, such as `pull:/todos` or `push:/todos`.
    public var feed: String
    /// Whether the changes are the whole collection (a full fetch): records not among
    /// them, and without a change queued locally, are deleted.
    public var isComplete: Bool

    /// Describes a batch.
    ///
    /// ```swift
    /// let everything = ChangeBatch(collection: "/todos", changes: [], cursor: nil, feed: "pull:/todos", isComplete: true)
    /// ```
    ///
    /// - Parameters:
    ///   - collection: The collection path.
    ///   - changes: The changes, oldest first.
    ///   - cursor: The cursor after them, or `nil`.
    ///   - feed: The name the cursor is kept under.
    ///   - isComplete: Whether the changes are the whole collection.
    public init(
        collection: String,
        changes: [RemoteChange],
        cursor: String?,
        feed: String,
        isComplete: Bool = false
    ) {
        self.collection = collection
        self.changes = changes
        self.cursor = cursor
        self.feed = feed
        self.isComplete = isComplete
    }
}
