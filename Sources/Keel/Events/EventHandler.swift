/// A collection that re-emits the events of its models (Backbone's `_onModelEvent`).
protocol ModelEventForwarding: EventEmitter {
    func forwardModelEvent(_ event: Event)
}

/// One registration in an emitter's handler table.
///
/// A class, so that a dispatch iterating a snapshot of the table and a removal during that
/// dispatch agree on the handler's state (`hasFired` for `once`).
final class EventHandler {
    /// The emitter-wide identifier that ``Subscription`` refers to.
    let id: Int
    /// The event name the handler is registered under.
    let name: String
    /// The handler's closure; for a forwarder (``isForwarder``) one that does nothing.
    ///
    /// Not optional: a dispatch calls it straight from the handler, and unwrapping an
    /// optional closure would copy it, retaining and releasing its context on every call.
    let callback: (Event) -> Void
    /// Whether this is a collection's forwarder (``forwarder``) rather than a closure.
    let isForwarder: Bool
    /// The owner (Backbone's context); the handler dies with it. For a `listenTo` handler
    /// the owner is the listener, which ``listener`` already reaches, so the handler keeps
    /// no weak reference of its own (each costs a side-table update to create and destroy,
    /// and makes every retain and release of the listener take the runtime's slow path).
    ///
    /// Read through a function that is not inlined and is not a method: a dispatch reads the
    /// owner only for a handler that has one, and the read, inlined or called as a method
    /// (whose `self` takes a register of its own), cost every dispatch registers to save.
    var owner: AnyObject? { ownerOfHandler(self) }
    fileprivate weak var ownOwner: AnyObject?
    let hasOwner: Bool
    /// A collection proxying this model's events; `callback` is `nil` then.
    weak var forwarder: (any ModelEventForwarding)?
    /// The forwarding collection without a reference count, for ``EventEmitter/forward(_:through:)``,
    /// which looks at the collection's handlers before anything else. Read only while
    /// ``forwarderIsAlive``: a weak reference would be loaded (and the collection retained
    /// and released) for every event, even one that the collection has no handler for.
    private(set) var unretainedForwarder: Unmanaged<EventEmitter>?
    /// Whether ``unretainedForwarder`` may be read: set while the collection lives, cleared
    /// when its deinit starts (``forwarderWillDeinit()``).
    private(set) var forwarderIsAlive = false
    let isOnce: Bool
    var hasFired = false
    /// The link of the emitter that registered this handler with `listenTo`: the handler
    /// belongs to its relationship with the emitter that holds it (see ``Listening``).
    let listener: EmitterLink?

    init(
        id: Int,
        name: String,
        callback: ((Event) -> Void)?,
        owner: AnyObject?,
        isOnce: Bool,
        listener: EmitterLink?,
        forwarder: (any ModelEventForwarding)? = nil
    ) {
        self.id = id
        self.name = name
        self.callback = callback ?? { _ in }
        self.isForwarder = callback == nil
        if listener == nil, let owner { ownOwner = owner }
        self.hasOwner = owner != nil
        self.isOnce = isOnce
        self.listener = listener
        if let forwarder {
            self.forwarder = forwarder
            unretainedForwarder = Unmanaged.passUnretained(forwarder)
            forwarderIsAlive = true
        }
    }

    /// Stops models reading ``unretainedForwarder``: the collection's deinit has started.
    func forwarderWillDeinit() {
        forwarderIsAlive = false
        unretainedForwarder = nil
    }

    /// A handler that makes `collection` re-emit the events of the models it is added to.
    static func forwarding(to collection: any ModelEventForwarding) -> EventHandler {
        EventHandler(
            id: EventEmitter.makeUniqueID(),
            name: "all",
            callback: nil,
            owner: nil,
            isOnce: false,
            listener: nil,
            forwarder: collection
        )
    }

    /// Whether the handler's owner or forwarding collection has gone away.
    var isDead: Bool {
        if isForwarder { return forwarder == nil }
        return hasOwner && owner == nil
    }
}

/// The owner of `handler` (``EventHandler/owner``).
@inline(never)
private func ownerOfHandler(_ handler: EventHandler) -> AnyObject? {
    if let listener = handler.listener { return listener.emitter }
    return handler.ownOwner
}
