/// The event API with typed names: each method forwards ``EventName/rawValue`` to its
/// string twin, so both spellings register, remove and trigger the very same handlers.
///
/// A string literal still picks the string method (Swift prefers a literal's default type),
/// so existing calls keep compiling and cost what they did.
extension EventEmitter {
    // MARK: - Registering

    /// Registers `callback` for one or more typed event names.
    ///
    /// ```swift
    /// note.on(.change(Note.title)) { event in print(event.value ?? nil) }
    /// notes.on([.add, .remove]) { event in print(event.name) }
    /// ```
    ///
    /// - Parameters:
    ///   - events: The event, or several in an array; ``EventName/all`` receives every event.
    ///   - owner: An owner held weakly, as for ``on(_:owner:_:)-(String,_,_)``.
    ///   - callback: The handler.
    /// - Returns: A token that removes the handler when cancelled.
    @discardableResult
    public final func on(_ events: EventName, owner: AnyObject? = nil, _ callback: @escaping (Event) -> Void)
        -> Subscription
    {
        on(events.rawValue, owner: owner, callback)
    }

    /// Registers `callback` to run at most once for each of the typed event names.
    ///
    /// ```swift
    /// note.once(.sync) { _ in print("first sync") }
    /// ```
    ///
    /// - Parameters:
    ///   - events: The event, or several in an array; each fires the handler once.
    ///   - owner: An owner held weakly.
    ///   - callback: The handler.
    /// - Returns: A token that removes the handler if it has not run yet.
    @discardableResult
    public final func once(_ events: EventName, owner: AnyObject? = nil, _ callback: @escaping (Event) -> Void)
        -> Subscription
    {
        once(events.rawValue, owner: owner, callback)
    }

    // MARK: - Removing

    /// Removes the handlers of typed event names, optionally only those of one owner.
    ///
    /// ```swift
    /// note.off(.change)
    /// note.off([.add, .remove], owner: view)
    /// ```
    ///
    /// - Parameters:
    ///   - events: The event, or several in an array.
    ///   - owner: Only handlers owned by this object, or `nil` for any.
    public final func off(_ events: EventName, owner: AnyObject? = nil) {
        off(events.rawValue, owner: owner)
    }

    // MARK: - Triggering

    /// Triggers one or more typed events with optional arguments.
    ///
    /// ```swift
    /// extension EventName { static let ping: EventName = "ping" }
    /// bus.trigger(.ping, 1, "two")
    /// ```
    ///
    /// - Parameters:
    ///   - events: The event, or several in an array.
    ///   - arguments: Values for the handlers: ``Event/arguments``, and the first one as
    ///     ``Event/value``.
    public final func trigger(_ events: EventName, _ arguments: JSONValue...) {
        for name in events.names {
            dispatch(Event(name: name, arguments: arguments))
        }
    }

    /// Triggers one or more typed events with a single argument.
    ///
    /// ```swift
    /// bus.trigger(.ping, 42)
    /// ```
    ///
    /// - Parameters:
    ///   - events: The event, or several in an array.
    ///   - argument: The value for the handlers, as ``Event/value``.
    public final func trigger(_ events: EventName, _ argument: JSONValue) {
        trigger(events.rawValue, argument)
    }

    // MARK: - Listening to other emitters

    /// Listens to typed events of another emitter; see ``listenTo(_:_:_:)-(_,String,_)``.
    ///
    /// ```swift
    /// badge.listenTo(inbox, [.add, .remove]) { [weak badge] _ in badge?.refresh() }
    /// ```
    ///
    /// - Parameters:
    ///   - target: The emitter to listen to; may be this emitter.
    ///   - events: The event, or several in an array.
    ///   - callback: The handler.
    /// - Returns: A token that removes the handler and its bookkeeping.
    @discardableResult
    public final func listenTo(_ target: EventEmitter, _ events: EventName, _ callback: @escaping (Event) -> Void)
        -> Subscription
    {
        listenTo(target, events.rawValue, callback)
    }

    /// Listens to typed events of another emitter until each has fired once.
    ///
    /// ```swift
    /// view.listenToOnce(note, .sync) { _ in print("loaded") }
    /// ```
    ///
    /// - Parameters:
    ///   - target: The emitter to listen to.
    ///   - events: The event, or several in an array; each fires once.
    ///   - callback: The handler.
    /// - Returns: A token that removes the handler and its bookkeeping.
    @discardableResult
    public final func listenToOnce(
        _ target: EventEmitter,
        _ events: EventName,
        _ callback: @escaping (Event) -> Void
    ) -> Subscription {
        listenToOnce(target, events.rawValue, callback)
    }

    /// Removes the handlers of typed event names that this emitter registered with `listenTo`.
    ///
    /// ```swift
    /// view.stopListening(note, .change)   // only "change" on `note`
    /// view.stopListening(nil, .change)    // "change" on every target
    /// ```
    ///
    /// - Parameters:
    ///   - target: One emitter, or `nil` for every emitter this one listens to.
    ///   - events: The event, or several in an array.
    public final func stopListening(_ target: EventEmitter?, _ events: EventName) {
        stopListening(target, events.rawValue)
    }

    // MARK: - Streams

    /// Typed events as an asynchronous sequence; see ``events(_:)-(String)``.
    ///
    /// ```swift
    /// for await event in note.events(.change(Note.title)) {
    ///     print("title is now", event.value ?? nil)
    /// }
    /// ```
    ///
    /// - Parameter names: The event, or several in an array; ``EventName/all`` for every event.
    /// - Returns: A sequence of the events, in the order they were triggered.
    public final func events(_ names: EventName) -> EventStream {
        events(names.rawValue)
    }
}
