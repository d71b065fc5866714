import Synchronization

/// An object that emits named events: Backbone's `Events`.
///
/// ``Model`` and ``Collection`` are emitters; subclass `EventEmitter` for a bare event
/// bus. Handlers run synchronously, in registration order, on the caller's isolation.
///
/// ```swift
/// let bus = EventEmitter()
/// let subscription = bus.on("ping") { event in print("ping", event.value ?? nil) }
/// bus.trigger("ping", 1)
/// subscription.cancel()
/// ```
///
/// Dispatch follows Backbone exactly:
/// - `"a b"` names several events; each name is handled in turn.
/// - Handlers registered for `"all"` run after the specific handlers of each event and
///   receive every event (``Event/name`` tells which).
/// - A handler added during a dispatch does not run in that dispatch; a handler removed
///   during a dispatch still does.
///
/// Closures cannot be compared, so every registration returns a ``Subscription`` token;
/// ``off(_:owner:)-(String?,_)`` also removes by event name, by owner (Backbone's context) or all at once.
/// An emitter never keeps an owner alive: a handler whose owner has been deallocated is
/// dropped. When a listener is deallocated it stops listening by itself.
open class EventEmitter {
    private static let nextID = Atomic<Int>(0)

    /// A process-wide unique number, for handler identifiers and client ids.
    static func makeUniqueID() -> Int {
        nextID.wrappingAdd(1, ordering: .relaxed).newValue
    }

    // The handler tables opt out of run-time exclusivity checks: no mutating access to them
    // stays open across a call into a handler (dispatch iterates copies), so the checks
    // could never fire, and every event paid for them.
    @exclusivity(unchecked) private var handlers = OrderedStringMap<HandlerList>()
    @exclusivity(unchecked) private var allHandlers = HandlerList()
    @exclusivity(unchecked) var listeningTo = ListeningTable()
    @exclusivity(unchecked) var listeners = ListeningTable()
    @exclusivity(unchecked) private var needsPruning = false
    private var storedLink: EmitterLink?

    /// The stand-in that this emitter's subscription tokens hold, created on first use.
    var link: EmitterLink {
        if let storedLink { return storedLink }
        let link = EmitterLink(self)
        storedLink = link
        return link
    }

    /// Creates an emitter with no handlers.
    ///
    /// ```swift
    /// let bus = EventEmitter()
    /// ```
    public init() {}

    deinit {
        storedLink?.emitter = nil
        stopListening()
        for listening in listeners.values {
            listening.listener?.listeningTo[listening.targetKey] = nil
        }
    }

    // MARK: - Registering

    /// Registers `callback` for one or more space-separated event names.
    ///
    /// ```swift
    /// note.on("change:title change:body") { event in print(event.name) }
    /// ```
    ///
    /// - Parameters:
    ///   - events: One name, or several separated by spaces; `"all"` receives every event.
    ///   - owner: An object that owns the handler (Backbone's context), held weakly: the
    ///     handler is dropped when the owner is deallocated, and ``off(_:owner:)-(String?,_)`` can remove
    ///     every handler of an owner.
    ///   - callback: The handler.
    /// - Returns: A token that removes the handler (every name's handler) when cancelled.
    @discardableResult
    public final func on(_ events: String, owner: AnyObject? = nil, _ callback: @escaping (Event) -> Void)
        -> Subscription
    {
        let id = Self.makeUniqueID()
        forEachName(in: events) { name in
            register(name: name, id: id, callback: callback, owner: owner, isOnce: false, listening: nil)
        }
        return Subscription(id: id, emitter: self)
    }

    /// Registers several handlers at once from an event map.
    ///
    /// ```swift
    /// note.on(["change:title": { _ in print("title") }, "destroy": { _ in print("gone") }])
    /// ```
    ///
    /// - Parameters:
    ///   - map: Event names (each may list several names) and their handlers.
    ///   - owner: The owner of every handler, held weakly.
    /// - Returns: A token that removes all of them when cancelled.
    @discardableResult
    public final func on(_ map: KeyValuePairs<String, (Event) -> Void>, owner: AnyObject? = nil) -> Subscription {
        let id = Self.makeUniqueID()
        for (events, callback) in map {
            forEachName(in: events) { name in
                register(name: name, id: id, callback: callback, owner: owner, isOnce: false, listening: nil)
            }
        }
        return Subscription(id: id, emitter: self)
    }

    /// Registers `callback` to run at most once for each of the given event names.
    ///
    /// The handler is removed before it runs, so triggering the same event from inside it
    /// does not run it again.
    ///
    /// ```swift
    /// note.once("sync") { _ in print("first sync") }
    /// ```
    ///
    /// - Parameters:
    ///   - events: One name, or several separated by spaces; each fires the handler once.
    ///   - owner: An owner held weakly, as for ``on(_:owner:_:)-(String,_,_)``.
    ///   - callback: The handler.
    /// - Returns: A token that removes the handler if it has not run yet.
    @discardableResult
    public final func once(_ events: String, owner: AnyObject? = nil, _ callback: @escaping (Event) -> Void)
        -> Subscription
    {
        let id = Self.makeUniqueID()
        forEachName(in: events) { name in
            register(name: name, id: id, callback: callback, owner: owner, isOnce: true, listening: nil)
        }
        return Subscription(id: id, emitter: self)
    }

    /// Registers several handlers to run at most once each, from an event map.
    ///
    /// ```swift
    /// note.once(["sync": { _ in print("saved") }, "error": { _ in print("failed") }])
    /// ```
    ///
    /// - Parameters:
    ///   - map: Event names (each may list several names) and their handlers.
    ///   - owner: The owner of every handler, held weakly.
    /// - Returns: A token that removes the handlers that have not run yet.
    @discardableResult
    public final func once(_ map: KeyValuePairs<String, (Event) -> Void>, owner: AnyObject? = nil) -> Subscription {
        let id = Self.makeUniqueID()
        for (events, callback) in map {
            forEachName(in: events) { name in
                register(name: name, id: id, callback: callback, owner: owner, isOnce: true, listening: nil)
            }
        }
        return Subscription(id: id, emitter: self)
    }

    // MARK: - Removing

    /// Removes the handlers of one registration.
    ///
    /// ```swift
    /// let token = note.on("change") { _ in }
    /// note.off(token)
    /// ```
    ///
    /// - Parameter subscription: The token that `on`, `once` or `listenTo` returned.
    public final func off(_ subscription: Subscription) {
        removeHandlers { $0.id == subscription.id }
    }

    /// Removes handlers by event name, by owner, or all of them.
    ///
    /// ```swift
    /// note.off("change")           // every "change" handler
    /// note.off(owner: view)        // every handler that `view` owns
    /// note.off()                   // everything
    /// ```
    ///
    /// Removing handlers that a `listenTo` registered also updates the listener's
    /// bookkeeping, as in Backbone.
    ///
    /// - Parameters:
    ///   - events: Space-separated names, or `nil` for every name.
    ///   - owner: Only handlers owned by this object, or `nil` for any.
    public final func off(_ events: String? = nil, owner: AnyObject? = nil) {
        let names = events.map(splitNames)
        removeHandlers { handler in
            if let names, !names.contains(handler.name) { return false }
            if let owner, handler.owner !== owner { return false }
            return !handler.isForwarder
        }
    }

    // MARK: - Triggering

    /// Triggers one or more space-separated events with optional arguments.
    ///
    /// ```swift
    /// bus.trigger("ping pong", 1, "two")
    /// ```
    ///
    /// - Parameters:
    ///   - events: One name, or several separated by spaces.
    ///   - arguments: Values for the handlers: ``Event/arguments``, and the first one as
    ///     ``Event/value``.
    public final func trigger(_ events: String, _ arguments: JSONValue...) {
        if handlers.isEmpty && allHandlers.isEmpty { return }
        if let position = handlers.index(forKey: events) {
            dispatch(Event(name: events, arguments: arguments), at: position)
            return
        }
        forEachName(in: events) { name in
            dispatch(Event(name: name, arguments: arguments))
        }
    }

    /// Triggers one or more space-separated events with a single argument.
    ///
    /// ```swift
    /// bus.trigger("ping", 42)
    /// ```
    ///
    /// - Parameters:
    ///   - events: One name, or several separated by spaces.
    ///   - argument: The value for the handlers, as ``Event/value``.
    public final func trigger(_ events: String, _ argument: JSONValue) {
        if handlers.isEmpty && allHandlers.isEmpty { return }
        // A name that has handlers of its own is a single name (registering splits names
        // at separators), so the common trigger finds its handlers without scanning the name.
        if let position = handlers.index(forKey: events) {
            dispatch(Event(name: events, argument: argument), at: position)
            return
        }
        forEachName(in: events) { name in
            dispatch(Event(name: name, argument: argument))
        }
    }

    /// Triggers a prepared event.
    ///
    /// ```swift
    /// note.trigger(Event(name: "highlight", model: note))
    /// ```
    ///
    /// - Parameter event: The event; its ``Event/name`` must be a single name.
    public final func trigger(_ event: Event) {
        dispatch(event)
    }

    /// Whether any handler is registered (including collections forwarding this model).
    var hasHandlers: Bool { !handlers.isEmpty || !allHandlers.isEmpty }

    /// Runs the handlers of one event name, then the `all` handlers.
    final func dispatch(_ event: Event) {
        if handlers.isEmpty && allHandlers.isEmpty { return }
        dispatch(event, at: handlers.index(forKey: event.name))
    }

    /// Runs the handlers at `position` in the table (those of the event's name), then the
    /// `all` handlers.
    private func dispatch(_ event: Event, at position: Int?) {
        // Read the `all` list before the specific handlers run (Backbone #1282).
        let all = allHandlers
        if let position {
            handlers.value(at: position).forEach { invoke($0, event) }
        }
        all.forEach { invoke($0, event) }
        if needsPruning { pruneDeadHandlers() }
    }

    private func invoke(_ handler: EventHandler, _ event: Event) {
        guard !handler.isForwarder else {
            if let forwarder = handler.forwarder {
                forwarder.forwardModelEvent(event)
            } else {
                needsPruning = true
            }
            return
        }
        if handler.hasOwner && handler.owner == nil {
            needsPruning = true
            return
        }
        if handler.isOnce {
            if handler.hasFired { return }
            handler.hasFired = true
            removeHandlers { $0 === handler }
        }
        handler.callback(event)
    }

    // MARK: - Bookkeeping visible to tests

    /// How many emitters this one listens to.
    var listeningToCount: Int { listeningTo.count }

    /// How many emitters listen to this one.
    var listenerCount: Int { listeners.count }

    /// How many handlers are registered, including collection forwarders.
    var handlerCount: Int { handlers.entries.reduce(allHandlers.count) { $0 + $1.value.count } }

    // MARK: - Internals

    /// Makes a collection re-emit this emitter's events, in the `all` list at this position.
    ///
    /// - Parameter handler: The collection's forwarding handler (``EventHandler/forwarding(to:)``),
    ///   one instance shared by all of its models.
    final func addForwarder(_ handler: EventHandler) {
        allHandlers.append(handler)
    }

    /// Stops `forwarder` (and any forwarder that has gone away) re-emitting these events.
    final func removeForwarder(_ forwarder: (any ModelEventForwarding)?) {
        allHandlers.removeFirst { $0.isForwarder && $0.forwarder === forwarder }
    }

    /// Drops forwarders whose collection has been deallocated.
    final func removeDeadForwarders() {
        allHandlers.removeAll { $0.isForwarder && $0.forwarder == nil }
    }

    func register(
        name: String,
        id: Int,
        callback: @escaping (Event) -> Void,
        owner: AnyObject?,
        isOnce: Bool,
        listening: Listening?
    ) {
        let handler = EventHandler(
            id: id,
            name: name,
            callback: callback,
            owner: owner,
            isOnce: isOnce,
            listening: listening
        )
        listening?.count += 1
        if name == "all" {
            allHandlers.append(handler)
        } else if let position = handlers.index(forKey: name) {
            handlers.modifyValue(at: position) { $0.append(handler) }
        } else {
            handlers.updateValue(HandlerList(handler), forKey: name)
        }
    }

    /// Removes matching handlers without disturbing a dispatch in progress (a dispatch
    /// iterates its own reference to a list, so removal copies a list that is in use), and
    /// drops `listenTo` bookkeeping that becomes empty.
    func removeHandlers(where shouldRemove: (EventHandler) -> Bool) {
        func remove(_ handler: EventHandler) -> Bool {
            guard shouldRemove(handler) else { return false }
            if let listening = handler.listening {
                listening.count -= 1
                if listening.count == 0 { forget(listening) }
            }
            return true
        }
        if allHandlers.contains(where: shouldRemove) { allHandlers.removeAll(where: remove) }
        var emptiedCount = 0
        var emptiedName = ""
        for position in handlers.entries.indices where handlers.entries[position].value.contains(where: shouldRemove) {
            let isEmpty = handlers.modifyValue(at: position) { list in
                list.removeAll(where: remove)
                return list.isEmpty
            }
            if isEmpty {
                emptiedCount += 1
                emptiedName = handlers.entries[position].key
            }
        }
        // One emptied name (the common `stopListening`) is removed by itself, without
        // partitioning the whole table.
        if emptiedCount == 1 {
            handlers.removeValue(forKey: emptiedName)
        } else if emptiedCount > 1 {
            handlers.removeAll { $0.value.isEmpty }
        }
    }

    private func pruneDeadHandlers() {
        needsPruning = false
        removeHandlers { $0.isDead }
    }

    func forEachName(in events: String, _ body: (String) -> Void) {
        // Scanned as contiguous bytes: stepping a small string's `UTF8View` costs tens of
        // instructions per byte, and every registration scans its names.
        let hasSeparator =
            events.utf8.withContiguousStorageIfAvailable { $0.contains(where: Self.isSeparator) }
            ?? events.utf8.contains(where: Self.isSeparator)
        if hasSeparator {
            for name in splitNames(events) { body(name) }
        } else {
            body(events)
        }
    }

    func splitNames(_ events: String) -> [String] {
        events.utf8.split(whereSeparator: Self.isSeparator).map { String(decoding: $0, as: UTF8.self) }
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
