/// A collection that re-emits the events of its models (Backbone's `_onModelEvent`).
protocol ModelEventForwarding: AnyObject {
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
    /// the owner is the listener, which ``listening`` already refers to weakly, so the
    /// handler keeps no weak reference of its own (each costs a side-table update to
    /// create and destroy).
    var owner: AnyObject? {
        if let listening { return listening.listener }
        return ownOwner
    }
    private weak var ownOwner: AnyObject?
    let hasOwner: Bool
    /// A collection proxying this model's events; `callback` is `nil` then.
    weak var forwarder: (any ModelEventForwarding)?
    let isOnce: Bool
    var hasFired = false
    /// The `listenTo` relationship this handler belongs to.
    let listening: Listening?

    init(
        id: Int,
        name: String,
        callback: ((Event) -> Void)?,
        owner: AnyObject?,
        isOnce: Bool,
        listening: Listening?,
        forwarder: (any ModelEventForwarding)? = nil
    ) {
        self.id = id
        self.name = name
        self.callback = callback ?? { _ in }
        self.isForwarder = callback == nil
        if listening == nil { ownOwner = owner }
        self.hasOwner = owner != nil
        self.isOnce = isOnce
        self.listening = listening
        self.forwarder = forwarder
    }

    /// A handler that makes `collection` re-emit the events of the models it is added to.
    static func forwarding(to collection: any ModelEventForwarding) -> EventHandler {
        EventHandler(
            id: EventEmitter.makeUniqueID(),
            name: "all",
            callback: nil,
            owner: nil,
            isOnce: false,
            listening: nil,
            forwarder: collection
        )
    }

    /// Whether the handler's owner or forwarding collection has gone away.
    var isDead: Bool {
        if isForwarder { return forwarder == nil }
        return hasOwner && owner == nil
    }
}

/// The bookkeeping of one `listenTo` relationship (Backbone's `Listening`): the listener
/// keeps it in its ``ListeningTable``, and each of its handlers on the target refers to it,
/// so that either side can end the relationship.
///
/// It reaches both emitters through their ``EmitterLink``s, which each emitter clears when
/// it is deallocated, instead of weak references: a weak reference gives its object a side
/// table, and every retain and release of the object then takes the runtime's slow path.
final class Listening {
    private let listenerLink: EmitterLink
    private let targetLink: EmitterLink
    /// The identity of the target, the listener's key for the relationship.
    let targetKey: ObjectIdentifier
    /// How many of the listener's handlers the target holds.
    var count = 0

    /// The listener, while it lives.
    var listener: EventEmitter? { listenerLink.emitter }
    /// The target, while it lives.
    var target: EventEmitter? { targetLink.emitter }

    init(listener: EmitterLink, target: EventEmitter, targetLink: EmitterLink) {
        self.listenerLink = listener
        self.targetLink = targetLink
        self.targetKey = ObjectIdentifier(target)
    }

    /// Deletes the relationship from the listener's table, once the target holds none of its
    /// handlers.
    func forget() {
        listener?.existingState?.listeningTo.remove(self)
    }
}
