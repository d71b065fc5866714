extension Model {
    /// The values one attribute takes, as an asynchronous sequence of Swift values.
    ///
    /// Each `change:<attribute>` event produces the attribute's new value, decoded to the
    /// key's type: `nil` when the attribute was unset or holds JSON of another shape. The
    /// current value is not repeated; read `model[key]` for it. Changes are buffered from the
    /// moment this method returns, and the sequence ends as ``EventEmitter/events(_:)-(String)``
    /// does: when the model is deallocated or the iterating task is cancelled.
    ///
    /// ```swift
    /// for await title in note.values(of: Note.title) {
    ///     print("title is now", title ?? "(none)")
    /// }
    /// ```
    ///
    /// - Parameter key: The attribute's typed key.
    /// - Returns: The attribute's values, in the order of the changes.
    public func values<Value>(of key: AttributeKey<Value>) -> AttributeValues<Value> {
        AttributeValues(events: events(.change(key)))
    }
}

/// An asynchronous sequence of one attribute's values; see ``Model/values(of:)``.
///
/// Iterate it on the same isolation as the model (like the model, it is not `Sendable`).
///
/// ```swift
/// for await done in note.values(of: Note.done) where done == true {
///     print("finished")
/// }
/// ```
public struct AttributeValues<Value: JSONRepresentable>: AsyncSequence {
    /// The attribute's new value after each change; `nil` when unset or of another shape.
    public typealias Element = Value?
    /// The sequence never throws.
    public typealias Failure = Never

    private let events: EventStream

    fileprivate init(events: EventStream) {
        self.events = events
    }

    /// Creates the iterator.
    ///
    /// ```swift
    /// var iterator = note.values(of: Note.title).makeAsyncIterator()
    /// ```
    public func makeAsyncIterator() -> Iterator { Iterator(events: events.makeAsyncIterator()) }

    /// The iterator of an ``AttributeValues`` sequence.
    public struct Iterator: AsyncIteratorProtocol {
        private var events: EventStream.Iterator

        fileprivate init(events: EventStream.Iterator) {
            self.events = events
        }

        /// Waits for the next change; `nil` when the model is gone or the task is cancelled.
        ///
        /// ```swift
        /// let title = await iterator.next()  // String??: .some(nil) means "unset"
        /// ```
        public mutating func next() async -> Value?? {
            guard let event = await events.next() else { return nil }
            return .some(event.value.flatMap(Value.init(json:)))
        }

        /// Waits for the next change on the caller's isolation.
        ///
        /// ```swift
        /// let title = await iterator.next(isolation: #isolation)
        /// ```
        ///
        /// - Parameter actor: The caller's isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Value?? {
            guard let event = await events.next(isolation: actor) else { return nil }
            return .some(event.value.flatMap(Value.init(json:)))
        }
    }
}
