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

    /// The least number that ``makeUniqueID()`` can return from now on: every emitter made
    /// before has a smaller one.
    static var nextUniqueID: Int {
        nextID.load(ordering: .relaxed) &+ 1
    }

    /// The emitter's handlers: none, a lone collection forwarder, or its state.
    ///
    /// The state is out of line and created with the first other handler (see `EmitterState`);
    /// unchecked for the same reason as the state's tables.
    @exclusivity(unchecked) final var emitterStorage = EmitterStorage.empty

    /// Creates an emitter with no handlers.
    ///
    /// ```swift
    /// let bus = EventEmitter()
    /// ```
    public init() {}

    deinit {
        guard let state = existingState else { return }
        state.link?.emitter = nil
        stopListening()
        // The emitters listening to this one forget it; their handlers name them.
        let key = ObjectIdentifier(self)
        forEachHandler(in: state) { $0.listener?.emitter?.existingState?.listeningTo.removeAll(from: key) }
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
    /// bookkeeping, as in Backbone. Keel's own handlers stay: a collection's forwarding of
    /// its models' events and an ``IdentityMap``'s following of its models' ids.
    ///
    /// - Parameters:
    ///   - events: Space-separated names, or `nil` for every name.
    ///   - owner: Only handlers owned by this object, or `nil` for any.
    public final func off(_ events: String? = nil, owner: AnyObject? = nil) {
        let names = events.map(splitNames)
        removeHandlers { handler in
            if let names, !names.contains(handler.name) { return false }
            if let owner, handler.owner !== owner { return false }
            return !handler.isForwarder && !handler.isBookkeeping
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
        if let unretained = unretainedState {
            let isDone = unretained._withUnsafeGuaranteedRef { state in
                if state.hasNoHandlers { return true }
                guard let position = Self.position(of: events, in: &state.handlers) else { return false }
                dispatch(Event(name: events, arguments: arguments), in: state, at: position)
                return true
            }
            if isDone { return }
        } else if case .empty = emitterStorage {
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
    public final func trigger(_ events: consuming String, _ argument: consuming JSONValue) {
        // Both are taken (`consuming`) so that they move into the event: a literal name and a
        // temporary value reach the handlers without a retain and a release of their own.
        if let unretained = unretainedState {
            let lookup = unretained._withUnsafeGuaranteedRef { state in
                // A name that has handlers of its own is a single name (registering splits names
                // at separators), so the common trigger finds its handlers without scanning the name.
                state.hasNoHandlers ? NameLookup.noHandlers : NameLookup(Self.position(of: events, in: &state.handlers))
            }
            switch lookup {
            case .noHandlers:
                return
            case .found(let position):
                let event = Event(name: consume events, argument: consume argument)
                unretained._withUnsafeGuaranteedRef { dispatch(event, in: $0, at: position) }
                return
            case .notFound:
                break
            }
        } else if case .empty = emitterStorage {
            return
        }
        dispatchEach(of: events, argument: argument)
    }

    /// Dispatches an event for each name in `events`, with `argument`: the rare trigger, kept
    /// out of the single-argument `trigger` so that its closure does not hold the value
    /// there, which made the common path copy it into the event.
    private func dispatchEach(of events: String, argument: JSONValue) {
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

    /// What a trigger's lookup of its whole name found.
    private enum NameLookup {
        /// The emitter has no handlers at all (not even `all`).
        case noHandlers
        /// The name has handlers of its own, at this position in the table.
        case found(Int)
        /// The name has no handlers of its own (it may name several events).
        case notFound

        init(_ position: Int?) {
            self = position.map(NameLookup.found) ?? .notFound
        }
    }

    /// Whether any handler is registered (including collections forwarding this model).
    @inline(__always)
    final var hasHandlers: Bool {
        if let unretained = unretainedState {
            return unretained._withUnsafeGuaranteedRef { !$0.hasNoHandlers }
        }
        if case .forwarder = emitterStorage { return true }
        return false
    }

    /// Whether a dispatch of an event named `name` would run no handler here: none is
    /// registered for the name, there is no `all` handler, and no collection forwards the
    /// emitter's events.
    final func hasNoHandlers(named name: String) -> Bool {
        switch emitterStorage {
        case .empty:
            return true
        case .forwarder:
            return false
        case .state(let state):
            return state.allHandlers.isEmpty && Self.position(of: name, in: &state.handlers) == nil
        case .marked:
            return hasNoMarkedHandlers(named: name)
        }
    }

    /// ``hasNoHandlers(named:)`` for a marked emitter (``EmitterStorage/marked(_:)``): out of
    /// line, so that the common cases stay as small as before.
    @inline(never)
    private func hasNoMarkedHandlers(named name: String) -> Bool {
        guard let state = unretainedMarkedState?.takeUnretainedValue() else { return true }
        return state.allHandlers.isEmpty && Self.position(of: name, in: &state.handlers) == nil
    }

    /// Whether an event named `name` would run no handler of the emitter but `forwarder`, a
    /// collection's forwarding handler: the forwarder is its lone handler, or its only `all`
    /// handler and none is registered for `name` (a model a store holds, which the store
    /// follows through `change`, `destroy`, `sync` and `error` handlers).
    final func runsOnlyForwarder(_ forwarder: EventHandler, for name: String) -> Bool {
        switch emitterStorage {
        case .empty:
            return false
        case .forwarder(let handler):
            return handler === forwarder
        case .state(let state):
            return state.allHandlers.isOnly(forwarder) && Self.position(of: name, in: &state.handlers) == nil
        case .marked:
            // The state a marked emitter shares was made from the map's followers alone, with no
            // collection forwarder (``EmitterState/sharedMarking(for:)``).
            return false
        }
    }

    /// Runs the handlers of one event name, then the `all` handlers.
    final func dispatch(_ event: Event) {
        if let unretained = unretainedState {
            unretained._withUnsafeGuaranteedRef { state in
                if state.hasNoHandlers { return }
                dispatch(event, in: state, at: Self.position(of: event.name, in: &state.handlers))
            }
        } else if let forwarder = unretainedLoneForwarder {
            let isForwarded = forwarder._withUnsafeGuaranteedRef { forward(event, through: $0) }
            if !isForwarded { removeDeadForwarders() }
        }
    }

    /// The position of `name`'s handlers in `handlers`.
    ///
    /// The table is reached in place (`inout`, which changes nothing): read as a value from
    /// the state object, it was retained and released around every lookup, once for its
    /// entries and once for its hash index.
    @inline(__always)
    static func position(of name: String, in handlers: inout OrderedStringMap<HandlerList>) -> Int? {
        handlers.index(forKey: name)
    }

    /// The handlers at `position` in `handlers`, lent for one dispatch (``HandlerList/lent``),
    /// with the table reached in place (see ``position(of:in:)``).
    @inline(__always)
    private static func lentHandlers(at position: Int, in handlers: inout OrderedStringMap<HandlerList>) -> LentHandlers
    {
        handlers.entries.withUnsafeBufferPointer { $0[position].value.lent }
    }

    /// Runs the handlers at `position` in the table (those of the event's name), then the
    /// `all` handlers.
    ///
    /// Each list is as it was when the dispatch reached it, as in Backbone: its handlers are lent
    /// (``HandlerList/lent``), and changes during the dispatch keep the tables as they were
    /// (``EmitterState/retireIfDispatching()``).
    final func dispatch(_ event: Event, in state: EmitterState, at position: Int?) {
        state.dispatchDepth &+= 1
        // Read the `all` list before the specific handlers run (Backbone #1282).
        let all = state.allHandlers.lent
        if let position {
            Self.lentHandlers(at: position, in: &state.handlers).forEach { invoke($0, event, in: state) }
        }
        all.forEach { invoke($0, event, in: state) }
        state.endDispatch()
        if state.needsPruning { pruneDeadHandlers(in: state) }
    }

    /// ``dispatch(_:in:at:)`` inline when the handlers at `position` are one plain handler
    /// (``EventHandler/isPlain``) and there is no `all` handler, as for most listeners of a
    /// model's `change:<attribute>` and `change`: the handler runs without the call and the
    /// loops of the general dispatch, with the same bookkeeping around it (the dispatch depth
    /// that keeps changed tables retired, the pruning a handler may ask for).
    ///
    /// The `all` list is read before the handler runs, as the general dispatch reads it: an
    /// `all` handler that it adds does not run for this event.
    @inline(__always)
    final func dispatchInline(_ event: Event, in state: EmitterState, at position: Int?) {
        guard let position, state.allHandlers.isEmpty,
            case .one(let lone) = Self.lentHandlers(at: position, in: &state.handlers),
            lone._withUnsafeGuaranteedRef({ $0.isPlain })
        else {
            dispatch(event, in: state, at: position)
            return
        }
        state.dispatchDepth &+= 1
        lone._withUnsafeGuaranteedRef { $0.callback(event) }
        state.endDispatch()
        if state.needsPruning { pruneDeadHandlers(in: state) }
    }

    /// Runs `handler` for `event`: a plain handler (``EventHandler/isPlain``) straight away,
    /// any other one after the checks of ``invokeChecked(_:_:in:)``.
    @inline(__always)
    private func invoke(_ handler: EventHandler, _ event: Event, in state: EmitterState) {
        if handler.isPlain {
            handler.callback(event)
        } else {
            invokeChecked(handler, event, in: state)
        }
    }

    /// Runs a handler that is not plain: forwards through a forwarder, tells the followers of a
    /// marker, skips (and prunes) one whose owner has gone, and runs a `once` handler only the
    /// first time, removing it.
    private func invokeChecked(_ handler: EventHandler, _ event: Event, in state: EmitterState) {
        guard !handler.isForwarder else {
            if !forwardFromList(event, through: handler) { state.needsPruning = true }
            return
        }
        if handler.isMarker {
            tellMarkedLinks(in: state)
            return
        }
        if handler.hasOwner && handler.owner == nil {
            state.needsPruning = true
            return
        }
        if handler.isOnce {
            if handler.hasFired { return }
            handler.hasFired = true
            removeHandlers { $0 === handler }
        }
        handler.callback(event)
    }

    /// Tells the owners that follow the emitter through its marker (``EmitterState/markedLinks``).
    ///
    /// Out of line: inlined, the owners' loop took registers from every dispatch's own loop.
    ///
    /// A state that marked models share has no links: those of the model dispatching are in its
    /// storage, or in the state of its own it copied since the dispatch started.
    @inline(never)
    private func tellMarkedLinks(in state: EmitterState) {
        if let links = state.markedLinks {
            links.dispatch()
            return
        }
        switch emitterStorage {
        case .marked(let links): links.dispatch()
        case .state(let own): own.markedLinks?.dispatch()
        case .empty, .forwarder: return
        }
    }

    // MARK: - Bookkeeping visible to tests

    /// How many handlers are registered, including collection forwarders.
    var handlerCount: Int {
        switch emitterStorage {
        case .empty: return 0
        case .forwarder: return 1
        case .state(let state): return state.handlers.entries.reduce(state.allHandlers.count) { $0 + $1.value.count }
        case .marked(let links):
            let state = links.sharedState
            return state.handlers.entries.reduce(state.allHandlers.count) { $0 + $1.value.count }
        }
    }

    /// Whether the emitter's handlers and `listenTo` bookkeeping have been created.
    var hasEmitterState: Bool { existingState != nil }
}
