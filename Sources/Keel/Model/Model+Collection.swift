/// The collection a model belongs to.
extension Model {
    /// The collection the model belongs to: the first one it was added to.
    ///
    /// The model does not keep it alive: it reads `nil` once that collection is released
    /// (from the start of its deinit), and is cleared when that collection removes the model.
    ///
    /// ```swift
    /// let notes = Collection<Note>([note])
    /// note.collection === notes  // true
    /// ```
    public var collection: (any ModelCollection)? { collectionForwarder?.forwarder }
}
