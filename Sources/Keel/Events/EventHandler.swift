/// A collection that re-emits the events of its models (Backbone's `_onModelEvent`).
protocol ModelEventForwarding: ModelCollection {
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
    /// The owner (Backbone's context); the handler dies with it.
    ///
    /// For a `listenTo` handler the owner is the listener, which ``listener`` already reaches, so
    /// the handler keeps no weak reference of its own (each costs a side-table update to create and
    /// destroy, and makes every retain and release of the listener take the runtime's slow path).
    ///
    /// Read through a function that is not inlined and is not a method: a dispatch reads the
    /// owner only for a handler that has one, and the read, inlined or called as a method
    /// (whose `self` takes a register of its own), cost every dispatch registers to save.
    var owner: AnyObject? { ownerOfHandler(self) }
    let hasOwner: Bool
    /// The one weak reference a handler may need, out of line: the owner of a handler registered
    /// with an owner by `on` or `once`, or the forwarding collection of a subclass
    /// (``forwarder``); `nil` for the others.
    ///
    /// Out of line so that the handlers that need neither (`listenTo` handlers, handlers without an
    /// owner, forwarders of `Collection` itself) create and destroy no weak reference: each one
    /// initialized and destroyed in place cost every handler about 30 instructions, even empty.
    fileprivate let weakReference: WeakReference?
    /// The collection proxying the model's events, for a forwarder; `nil` once its deinit
    /// has started, as a `weak` reference would read.
    ///
    /// The handler holds no weak reference to an instance of `Collection` itself: one would
    /// give the collection a side table, which makes every retain and release of it take
    /// the runtime's slow path, and loading one costs more than the dispatch it guards. The
    /// collection is kept unretained instead, and the first thing its deinit does is clear
    /// it (``forwarderWillDeinit()``); the collection is the only one to install this
    /// handler. The deinit of a subclass runs before that, so an instance of a subclass is
    /// also referred to weakly (``weakReference``).
    var forwarder: (any ModelEventForwarding)? {
        guard forwarderIsAlive else { return nil }
        if watchesDeinit && weakReference?.object == nil { return nil }
        return unownedForwarder
    }
    /// The forwarding collection; read only while ``forwarderIsAlive``.
    private unowned(unsafe) var unownedForwarder: (any ModelEventForwarding)?
    /// The forwarding collection without a reference count, for
    /// ``EventEmitter/forward(_:through:)``, which looks at the collection's handlers before
    /// anything else.
    ///
    /// Read only while ``forwarderIsAlive``: retaining the collection for every event, even one
    /// that it has no handler for, would cost more than the look.
    private(set) var unretainedForwarder: Unmanaged<EventEmitter>?
    /// Whether ``unretainedForwarder`` may be read: set while the collection lives, cleared
    /// when its deinit starts (``forwarderWillDeinit()``), before its memory can go away.
    private(set) var forwarderIsAlive = false
    /// Whether the forwarding collection is an instance of a subclass, whose deinit runs
    /// before the collection's own can clear ``forwarderIsAlive``: that collection is then
    /// alive only while ``weakReference`` reads it: reading `nil` once the subclass's deinit has
    /// started is the only sign of it (the runtime's check has no public name), which costs that
    /// collection the side table that others are spared.
    private var watchesDeinit = false
    let isOnce: Bool
    /// Whether the handler is a model's bookkeeping rather than the app's: an identity map's
    /// follower (``IdentityMap``), which `off()` leaves in place (as it leaves forwarders) and
    /// which a model tells of its deinit (``Model/leaveIdentityMaps()``).
    let isBookkeeping: Bool
    /// Whether the handler is a closure without an owner that runs on every event: neither a
    /// forwarder nor owned nor `once`, so that a dispatch calls it after testing one flag
    /// instead of three.
    let isPlain: Bool
    /// Whether the handler is the marker (``changeMarker``): a place in its list, without a
    /// closure, for the owners that follow the emitter (``EmitterState/markedLinks``).
    let isMarker: Bool
    var hasFired = false
    /// The link of the emitter that registered this handler with `listenTo`: the handler
    /// belongs to its relationship with the emitter that holds it (see ``Listening``).
    let listener: EmitterLink?

    /// A handler registered by `on` or `once`, whose `owner`, when given, it holds weakly, or a
    /// collection's forwarder (without `callback`; see ``forwarding(to:isSubclass:)``).
    init(
        id: Int,
        name: String,
        callback: ((Event) -> Void)?,
        owner: AnyObject?,
        isOnce: Bool,
        isBookkeeping: Bool = false,
        forwarder: (any ModelEventForwarding)? = nil,
        forwarderIsSubclass: Bool = false
    ) {
        self.id = id
        self.isBookkeeping = isBookkeeping
        self.name = name
        self.callback = callback ?? { _ in }
        self.isForwarder = callback == nil
        if let owner {
            weakReference = WeakReference(owner)
        } else if let forwarder, forwarderIsSubclass {
            weakReference = WeakReference(forwarder)
        } else {
            weakReference = nil
        }
        self.hasOwner = owner != nil
        self.isOnce = isOnce
        isPlain = callback != nil && owner == nil && !isOnce
        isMarker = false
        listener = nil
        if let forwarder {
            unownedForwarder = forwarder
            unretainedForwarder = Unmanaged.passUnretained(forwarder)
            forwarderIsAlive = true
            watchesDeinit = forwarderIsSubclass
        }
    }

    /// A handler that the emitter of `listener` registered with `listenTo` (its owner).
    init(listenToID id: Int, name: String, callback: @escaping (Event) -> Void, isOnce: Bool, listener: EmitterLink) {
        self.id = id
        self.name = name
        self.callback = callback
        isForwarder = false
        hasOwner = true
        weakReference = nil
        self.isOnce = isOnce
        isBookkeeping = false
        isPlain = false
        isMarker = false
        self.listener = listener
    }

    /// The marker, for `name`: no closure, no owner.
    private init(markerNamed name: String) {
        id = EventEmitter.makeUniqueID()
        self.name = name
        callback = { _ in }
        isForwarder = false
        hasOwner = false
        weakReference = nil
        isOnce = false
        isBookkeeping = false
        isPlain = false
        isMarker = true
        listener = nil
    }

    /// The place of a model's followers among its `change` handlers: one entry, shared by every
    /// model, that a dispatch reaching it answers by telling the owners that embed the model
    /// (``EmitterState/markedLinks``), in the handlers' order.
    ///
    /// A handler of its own per followed model cost a closure, a handler and a copy of the
    /// model's handler table (shared, until then, with the models built alike): a tenth of
    /// reading a compound document. The marker is an entry like any other for `off`, counts and
    /// dispatch order; it holds no state, so one instance serves every model and thread (it is
    /// never written: it is neither `once` nor a forwarder).
    nonisolated(unsafe) static let changeMarker = EventHandler(markerNamed: "change")

    /// What the forwarding collection gave its models for syncing, kept when its deinit
    /// started: the models whose collection it was read it here (``Model/collectionContext``),
    /// so that releasing a collection copies nothing into each of its models.
    var releasedCollection: ReleasedCollection?

    /// Stops models reading the collection: its deinit has started.
    func forwarderWillDeinit() {
        forwarderIsAlive = false
        unretainedForwarder = nil
        unownedForwarder = nil
    }

    /// The forwarding collection, retained for the caller, unless it has gone away: its
    /// deinit has started.
    ///
    /// For an instance of `Collection` itself, a plain retain of the unretained reference,
    /// valid while ``forwarderIsAlive``; for a subclass's, a load of ``weakReference``.
    @inline(__always)
    func retainedForwarder() -> EventEmitter? {
        guard forwarderIsAlive, let unretained = unretainedForwarder else { return nil }
        if watchesDeinit {
            guard let collection = weakReference?.object else { return nil }
            return unsafeDowncast(collection, to: EventEmitter.self)
        }
        return unretained.takeUnretainedValue()
    }

    /// A handler that makes `collection` re-emit the events of the models it is added to.
    ///
    /// - Parameters:
    ///   - collection: The collection.
    ///   - isSubclass: Whether `collection` is an instance of a subclass of `Collection`,
    ///     whose own deinit may run code before `Collection`'s (see ``forwarder``).
    static func forwarding(to collection: any ModelEventForwarding, isSubclass: Bool) -> EventHandler {
        EventHandler(
            id: EventEmitter.makeUniqueID(),
            name: "all",
            callback: nil,
            owner: nil,
            isOnce: false,
            forwarder: collection,
            forwarderIsSubclass: isSubclass
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
    guard handler.hasOwner else { return nil }
    return handler.weakReference?.object
}

/// An object referred to weakly, for ``EventHandler/weakReference``.
private final class WeakReference {
    /// The object, or `nil` once its deinit has started.
    weak var object: AnyObject?

    init(_ object: AnyObject) {
        self.object = object
    }
}
