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
        guard let state = existingState, !state.listeningTo.isEmpty else { return }
        let names = events.map(splitNames)
        if let target {
            if let listening = state.listeningTo[ObjectIdentifier(target)] { stop(listening, names: names) }
        } else if let listening = state.listeningTo.single {
            stop(listening, names: names)
        } else {
            for listening in state.listeningTo.values { stop(listening, names: names) }
        }
    }

    /// Removes the handlers of one `listenTo` relationship, or those of the named events.
    func stop(_ listening: Listening, names: [String]?) {
        guard let target = listening.target else {
            existingState?.listeningTo.remove(listening)
            return
        }
        target.removeHandlers { handler in
            guard handler.listening === listening else { return false }
            if let names { return names.contains(handler.name) }
            return true
        }
    }

    /// Registers `callback` on `target` for the names in `events`, as this emitter's.
    func listen(
        to target: EventEmitter,
        _ events: String,
        _ callback: @escaping (Event) -> Void,
        isOnce: Bool
    ) -> Subscription {
        let targetLink = target.link
        let listening = relationship(with: target, targetLink)
        let id = Self.makeUniqueID()
        register(events, callback, on: target, id: id, isOnce: isOnce, listening: listening)
        if listening.count == 0 { listening.forget() }
        return Subscription(id: id, link: targetLink)
    }

    func listen(
        to target: EventEmitter,
        _ map: some Sequence<(String, (Event) -> Void)>,
        isOnce: Bool
    ) -> Subscription {
        let targetLink = target.link
        let listening = relationship(with: target, targetLink)
        let id = Self.makeUniqueID()
        for (events, callback) in map {
            register(events, callback, on: target, id: id, isOnce: isOnce, listening: listening)
        }
        if listening.count == 0 { listening.forget() }
        return Subscription(id: id, link: targetLink)
    }

    /// This emitter's relationship with `target`, created if there is none yet.
    private func relationship(with target: EventEmitter, _ targetLink: EmitterLink) -> Listening {
        let state = self.state
        if let existing = state.listeningTo[ObjectIdentifier(target)] { return existing }
        let listening = Listening(listener: link, target: target, targetLink: targetLink)
        state.listeningTo.insert(listening)
        return listening
    }

    private func register(
        _ events: String,
        _ callback: @escaping (Event) -> Void,
        on target: EventEmitter,
        id: Int,
        isOnce: Bool,
        listening: Listening
    ) {
        target.forEachName(in: events) { name in
            target.register(name: name, id: id, callback: callback, owner: self, isOnce: isOnce, listening: listening)
        }
    }
}
