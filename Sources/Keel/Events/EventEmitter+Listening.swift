/// Listening to other emitters: `listenTo`, `listenToOnce` and `stopListening`, with the
/// bookkeeping that lets either side end the relationship.
extension EventEmitter {
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
        listen(to: target, events, callback, isOnce: false)
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
        listen(to: target, events, callback, isOnce: true)
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
        // The state and its link live as long as this emitter, which the caller holds: they
        // are used without reference counts (see `unretainedStateAndLink`).
        guard let unretained = unretainedState else { return }
        unretained._withUnsafeGuaranteedRef { state in
            guard !state.listeningTo.isEmpty, let link = state.unretainedLink else { return }
            link._withUnsafeGuaranteedRef { link in stopListening(target, events, through: link, in: state) }
        }
    }

    /// ``stopListening(_:_:)-(_,String?)`` with this emitter's link and state.
    private func stopListening(
        _ target: EventEmitter?,
        _ events: String?,
        through link: EmitterLink,
        in state: EmitterState
    ) {
        if target == nil && events == nil, let listening = state.listeningTo.takeSingle() {
            // The common `stopListening()`: the lone relationship ends whole, so it leaves the
            // table first, moved out rather than copied.
            _ = listening.targetLink.emitter?.removeListenToHandlers(of: link, names: nil)
            return
        }
        let names = events.map(splitNames)
        if let target {
            if let listening = state.listeningTo[ObjectIdentifier(target)] {
                stop(listening, of: link, names: names, in: state)
            }
        } else if let listening = state.listeningTo.single {
            stop(listening, of: link, names: names, in: state)
        } else {
            for listening in state.listeningTo.values { stop(listening, of: link, names: names, in: state) }
        }
    }

    /// Removes the handlers of one `listenTo` relationship (those registered through `link`,
    /// this emitter's, whose state is `state`), or those of the named events, and counts them
    /// off the relationship.
    private func stop(_ listening: Listening, of link: EmitterLink, names: [String]?, in state: EmitterState) {
        guard let target = listening.targetLink.emitter else {
            state.listeningTo.removeAll(from: listening.targetKey)
            return
        }
        let removed = target.removeListenToHandlers(of: link, names: names)
        if names == nil {
            state.listeningTo.removeAll(from: listening.targetKey)
        } else {
            state.listeningTo.remove(removed, from: listening.targetKey)
        }
    }

    /// Calls `body` with every handler in `state`, this emitter's state.
    func forEachHandler(in state: EmitterState, _ body: (EventHandler) -> Void) {
        state.allHandlers.forEach(body)
        for entry in state.handlers.entries { entry.value.forEach(body) }
    }

    // MARK: - Bookkeeping visible to tests

    /// How many emitters this one listens to.
    var listeningToCount: Int { existingState?.listeningTo.count ?? 0 }

    /// How many emitters listen to this one, found through their handlers.
    var listenerCount: Int {
        guard let state = existingState else { return 0 }
        var listeners = Set<ObjectIdentifier>()
        forEachHandler(in: state) { if let listener = $0.listener { listeners.insert(ObjectIdentifier(listener)) } }
        return listeners.count
    }

    // MARK: - Registering

    /// Registers `callback` on `target` for the names in `events`, as this emitter's.
    ///
    /// Not through the event-map variant: a closure passed in a generic sequence's tuples is
    /// wrapped in a reabstraction thunk, one more allocation per `listenTo`, and one more
    /// call each time the handler runs.
    func listen(
        to target: EventEmitter,
        _ events: String,
        _ callback: @escaping (Event) -> Void,
        isOnce: Bool
    ) -> Subscription {
        let registration = ListenToRegistration(listener: self, target: target, isOnce: isOnce)
        let count = registration.register(events, callback, on: target)
        registration.finish(count, on: target)
        return registration.subscription
    }

    func listen(
        to target: EventEmitter,
        _ map: some Sequence<(String, (Event) -> Void)>,
        isOnce: Bool
    ) -> Subscription {
        let registration = ListenToRegistration(listener: self, target: target, isOnce: isOnce)
        var count = 0
        for (events, callback) in map { count += registration.register(events, callback, on: target) }
        registration.finish(count, on: target)
        return registration.subscription
    }
}

/// One `listenTo` call: registers the listener's handlers on the target, then records how
/// many in the listener's ``ListeningTable``.
///
/// The emitters themselves are passed to each step rather than kept: the caller holds them,
/// and keeping them would retain and release both once more per call. Their states and links
/// are kept without reference counts for the same reason: each lives as long as its emitter
/// (see ``EventEmitter/unretainedStateAndLink``).
private struct ListenToRegistration {
    let isOnce: Bool
    let listenerState: Unmanaged<EmitterState>
    let listenerLink: Unmanaged<EmitterLink>
    let targetState: Unmanaged<EmitterState>
    let targetLink: Unmanaged<EmitterLink>
    /// The identifier of every handler of the call, as its token's.
    let id = EventEmitter.makeUniqueID()

    init(listener: EventEmitter, target: EventEmitter, isOnce: Bool) {
        self.isOnce = isOnce
        (listenerState, listenerLink) = listener.unretainedStateAndLink
        (targetState, targetLink) = target.unretainedStateAndLink
    }

    var subscription: Subscription { Subscription(id: id, link: targetLink.takeUnretainedValue()) }

    /// Registers `callback` on `target` for each name in `events`.
    ///
    /// - Returns: How many handlers it registered.
    func register(_ events: String, _ callback: @escaping (Event) -> Void, on target: EventEmitter) -> Int {
        guard EventEmitter.isSingleName(events) else {
            let names = target.splitNames(events)
            for name in names { register(name: name, callback, on: target) }
            return names.count
        }
        register(name: events, callback, on: target)
        return 1
    }

    /// Registers `callback` on `target` for the single name `name`.
    private func register(name: String, _ callback: @escaping (Event) -> Void, on target: EventEmitter) {
        let handler = EventHandler(
            listenToID: id,
            name: name,
            callback: callback,
            isOnce: isOnce,
            listener: listenerLink.takeUnretainedValue()
        )
        targetState._withUnsafeGuaranteedRef { target.add(handler, named: name, in: $0) }
    }

    /// Records the relationship with `target`, when the call registered `count` handlers.
    func finish(_ count: Int, on target: EventEmitter) {
        guard count > 0 else { return }
        listenerState._withUnsafeGuaranteedRef {
            $0.listeningTo.add(count, on: target, targetLink.takeUnretainedValue())
        }
    }
}
