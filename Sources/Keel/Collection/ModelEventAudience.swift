/// Whether the `add` or `remove` event that a collection fires on one of its models would
/// run any handler, so that `set` and `remove` build and dispatch only the events that do.
///
/// Such an event runs the model's own handlers and then, through the collection's
/// forwarder, the collection's handlers of its name and its `all` handlers. For a model
/// whose only handler of the name, and only `all` handler, is this collection's forwarder,
/// in a collection with neither, it would run none: building, dispatching and destroying the event is skipped, which
/// changes nothing observable (about 300 instructions per model in a large `add`). A
/// handler that runs can register others, so the collection is looked at again after
/// every event that was dispatched.
struct ModelEventAudience {
    private let name: String
    private let collection: EventEmitter
    private let forwarder: EventHandler
    /// Whether the collection has a handler for ``name`` or an `all` handler.
    private var collectionListens: Bool

    /// The audience of the events named `name` that `collection` fires on its models.
    init<M>(named name: String, in collection: Collection<M>) {
        self.name = name
        self.collection = collection
        forwarder = collection.forwardingHandler
        collectionListens = !collection.hasNoHandlers(named: name)
    }

    /// Whether the event on `model` would run no handler.
    @inline(__always)
    func isEmpty(for model: Model) -> Bool {
        !collectionListens && model.runsOnlyForwarder(forwarder, for: name)
    }

    /// Looks at the collection's handlers again, after an event ran handlers.
    mutating func refresh() {
        collectionListens = !collection.hasNoHandlers(named: name)
    }
}
