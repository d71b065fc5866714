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
    @exclusivity(unchecked) private var listeningTo = ListeningTable()
    @exclusivity(unchecked) private var listeners = ListeningTable()
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

    // MARK: - Listening to other emitters

    /// Listens to events of another emitter, keeping track of it so that
    /// ``stopListening(_:_:)-(_,String?)`` can remove the handlers later.
    ///
    /// The target holds the handler with this emitter as its owner, weakly: capture `self`
    /// weakly in `callback` too, and the target will never keep this emitter alive. A
    /// deallocated listener stops listening by itself.
    ///
    /// ```swift
    /// final class Badge: EventEmitter {
    ///     init(inbox: Collection<Note>) {
    ///         super.init()
    ///         listenTo(inbox, "add remove") { [weak self] _ in self?.refresh() }
    ///     }
    ///     func refresh() {}
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - target: The emitter to listen to; may be this emitter.
    ///   - events: One name, or several separated by spaces.
    ///   - callback: The handler.
    /// - Returns: A token that removes the handler and its bookkeeping.
    @discardableResult
    public final func listenTo(_ target: EventEmitter, _ events: String, _ callback: @escaping (Event) -> Void)
        -> Subscription
    {
        listen(to: target, [(events, callback)], isOnce: false)
    }

    /// Listens to several events of another emitter at once, from an event map.
    ///
    /// ```swift
    /// view.listenTo(note, ["change:title": { _ in }, "destroy": { _ in }])
    /// ```
    ///
    /// - Parameters:
    ///   - target: The emitter to listen to.
    ///   - map: Event names (each may list several names) and their handlers.
    /// - Returns: A token that removes all of them and their bookkeeping.
    @discardableResult
    public final func listenTo(_ target: EventEmitter, _ map: KeyValuePairs<String, (Event) -> Void>) -> Subscription {
        listen(to: target, map.map { ($0.key, $0.value) }, isOnce: false)
    }

    /// Listens to events of another emitter until each named event has fired once.
    ///
    /// ```swift
    /// view.listenToOnce(note, "sync") { _ in print("loaded") }
    /// ```
    ///
    /// - Parameters:
    ///   - target: The emitter to listen to.
    ///   - events: One name, or several separated by spaces; each fires once.
    ///   - callback: The handler.
    /// - Returns: A token that removes the handler and its bookkeeping.
    @discardableResult
    public final func listenToOnce(_ target: EventEmitter, _ events: String, _ callback: @escaping (Event) -> Void)
        -> Subscription
    {
        listen(to: target, [(events, callback)], isOnce: true)
    }

    /// Listens to several events of another emitter until each has fired once, from an
    /// event map.
    ///
    /// ```swift
    /// view.listenToOnce(note, ["sync": { _ in }, "error": { _ in }])
    /// ```
    ///
    /// - Parameters:
    ///   - target: The emitter to listen to.
    ///   - map: Event names (each may list several names) and their handlers.
    /// - Returns: A token that removes the handlers that have not run yet.
    @discardableResult
    public final func listenToOnce(_ target: EventEmitter, _ map: KeyValuePairs<String, (Event) -> Void>)
        -> Subscription
    {
        listen(to: target, map.map { ($0.key, $0.value) }, isOnce: true)
    }

    /// Removes handlers that this emitter registered on others with `listenTo`.
    ///
    /// ```swift
    /// view.stopListening()                 // everything
    /// view.stopListening(note)             // everything on `note`
    /// view.stopListening(note, "change")   // only "change" on `note`
    /// view.stopListening(nil, "change")    // "change" on every target
    /// ```
    ///
    /// - Parameters:
    ///   - target: One emitter, or `nil` for every emitter this one listens to.
    ///   - events: Space-separated names, or `nil` for every name.
    public final func stopListening(_ target: EventEmitter? = nil, _ events: String? = nil) {
        let names = events.map(splitNames)
        if let target {
            if let listening = listeningTo[ObjectIdentifier(target)] { stop(listening, names: names) }
        } else if let listening = listeningTo.single {
            stop(listening, names: names)
        } else if !listeningTo.isEmpty {
            for listening in listeningTo.values { stop(listening, names: names) }
        }
    }

    /// Removes the handlers of one `listenTo` relationship, or those of the named events.
    private func stop(_ listening: Listening, names: [String]?) {
        guard let target = listening.target else {
            listeningTo[listening.targetKey] = nil
            return
        }
        target.removeHandlers { handler in
            guard handler.listening === listening else { return false }
            if let names { return names.contains(handler.name) }
            return true
        }
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

    private func listen(
        to target: EventEmitter,
        _ map: some Sequence<(String, (Event) -> Void)>,
        isOnce: Bool
    ) -> Subscription {
        let key = ObjectIdentifier(target)
        let listening: Listening
        if let existing = listeningTo[key] {
            listening = existing
        } else {
            listening = Listening(listener: self, target: target)
            listeningTo[key] = listening
            target.listeners[listening.listenerKey] = listening
        }
        let id = Self.makeUniqueID()
        for (events, callback) in map {
            target.forEachName(in: events) { name in
                target.register(
                    name: name,
                    id: id,
                    callback: callback,
                    owner: self,
                    isOnce: isOnce,
                    listening: listening
                )
            }
        }
        if listening.count == 0 { target.forget(listening) }
        return Subscription(id: id, emitter: target)
    }

    private func register(
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
    private func removeHandlers(where shouldRemove: (EventHandler) -> Bool) {
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

    /// Deletes a finished `listenTo` relationship from both sides.
    private func forget(_ listening: Listening) {
        listeners[listening.listenerKey] = nil
        listening.listener?.listeningTo[listening.targetKey] = nil
    }

    private func pruneDeadHandlers() {
        needsPruning = false
        removeHandlers { $0.isDead }
    }

    private func forEachName(in events: String, _ body: (String) -> Void) {
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

    private func splitNames(_ events: String) -> [String] {
        events.utf8.split(whereSeparator: Self.isSeparator).map { String(decoding: $0, as: UTF8.self) }
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
