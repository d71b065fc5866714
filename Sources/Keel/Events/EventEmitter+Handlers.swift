/// Registering and removing handlers: a lone forwarder kept without a state, handlers added to the
/// state's tables, and removals that keep a dispatch in progress safe.
extension EventEmitter {
    /// Makes a collection re-emit this emitter's events, in the `all` list at this position.
    ///
    /// - Parameter handler: The collection's forwarding handler (``EventHandler/forwarding(to:)``),
    ///   one instance shared by all of its models.
    @inline(__always)
    func addForwarder(_ handler: EventHandler) {
        if case .empty = emitterStorage {
            emitterStorage = .forwarder(handler)
        } else {
            appendForwarder(handler)
        }
    }

    /// ``addForwarder(_:)`` for an emitter that has a handler already: out of line, so that
    /// adding a model to a collection inlines only the common case, the model's first handler.
    ///
    /// A model that shares the state of the models a map built alike shares, from then on, the
    /// one of those that the same collection holds (``EmitterSharing``).
    @inline(never)
    private func appendForwarder(_ handler: EventHandler) {
        if let current = unretainedState,
            let shared = current._withUnsafeGuaranteedRef({ $0.isShared ? $0.sharedAdding(handler) : nil })
        {
            emitterStorage = .state(shared)
            return
        }
        let state = self.state
        state.retireIfDispatching()
        state.allHandlers.append(handler)
    }

    /// Stops a collection re-emitting these events.
    ///
    /// - Parameter forwarder: The collection's forwarding handler, as given to ``addForwarder(_:)``.
    func removeForwarder(_ forwarder: EventHandler) {
        switch emitterStorage {
        case .empty:
            return
        case .forwarder(let handler):
            if handler === forwarder { emitterStorage = .empty }
        case .state(let current):
            removeForwarder(forwarder, from: current)
        case .marked(let links):
            removeForwarder(forwarder, from: links.sharedState)
        }
    }

    /// ``removeForwarder(_:)`` for an emitter whose state, possibly shared, is `current`.
    private func removeForwarder(_ forwarder: EventHandler, from current: EmitterState) {
        if current.isShared {
            if let base = current.sharedRemoving(forwarder) {
                emitterStorage = .state(base)
                return
            }
            guard current.allHandlers.contains(where: { $0 === forwarder }) else { return }
        }
        let state = self.state
        state.retireIfDispatching()
        state.allHandlers.removeFirst { $0 === forwarder }
    }

    /// Drops forwarders whose collection has been deallocated.
    func removeDeadForwarders() {
        switch emitterStorage {
        case .empty:
            return
        case .forwarder(let handler):
            if handler.isDead { emitterStorage = .empty }
        case .state(let current):
            removeDeadForwarders(from: current)
        case .marked(let links):
            removeDeadForwarders(from: links.sharedState)
        }
    }

    /// ``removeDeadForwarders()`` for an emitter whose state, possibly shared, is `current`.
    private func removeDeadForwarders(from current: EmitterState) {
        if current.isShared {
            if let dead = current.deadSharedForwarder, let base = current.sharedRemoving(dead) {
                emitterStorage = .state(base)
                return
            }
            guard current.allHandlers.contains(where: { $0.isForwarder && $0.isDead }) else { return }
        }
        let state = self.state
        state.retireIfDispatching()
        state.allHandlers.removeAll { $0.isForwarder && $0.isDead }
    }

    /// Registers a handler in `state`, this emitter's state.
    func register(
        name: String,
        id: Int,
        callback: @escaping (Event) -> Void,
        owner: AnyObject?,
        isOnce: Bool,
        in state: EmitterState
    ) {
        let handler = EventHandler(id: id, name: name, callback: callback, owner: owner, isOnce: isOnce)
        add(handler, named: name, in: state)
    }

    /// Adds `handler`, registered for `name`, to `state`, this emitter's state.
    ///
    /// The handler is taken (`consuming`), so that a new one moves into the table without a
    /// retain and a release of its own; the table is searched in place (see ``position(of:in:)``).
    func add(_ newHandler: consuming EventHandler, named name: String, in state: EmitterState) {
        let handler = newHandler
        // A dispatch in progress iterates the lists as they were, lent (``HandlerList/lent``).
        state.retireIfDispatching()
        // The length first: most names are not three bytes long, and comparing two different
        // strings calls into the runtime.
        if name.utf8.count == 3 && name == "all" {
            state.allHandlers.append(handler)
        } else if let position = Self.position(of: name, in: &state.handlers) {
            state.handlers.modifyValue(at: position) { $0.append(handler) }
        } else {
            state.handlers.appendUnchecked(name, HandlerList(handler))
        }
    }

    /// Removes matching handlers without disturbing a dispatch in progress (a dispatch
    /// iterates its own reference to a list, so removal copies a list that is in use), drops
    /// `listenTo` bookkeeping that becomes empty, and tells the followers of a removed marker.
    func removeHandlers(where shouldRemove: (EventHandler) -> Bool) {
        let key = ObjectIdentifier(self)
        removeHandlers(where: shouldRemove) { handler in
            if let listener = handler.listener {
                listener.emitter?.existingState?.listeningTo.remove(1, from: key)
            } else if handler.isMarker {
                existingState?.markedLinks?.markerWasRemoved()
            }
        }
    }

    /// Removes the handlers that the emitter of `link` registered here with `listenTo`, those of
    /// `names` only when given, and leaves that emitter's ``ListeningTable`` to the caller.
    ///
    /// `stopListening` ends or shortens the relationship once, from the count returned, instead
    /// of reaching the listener's table through each removed handler.
    ///
    /// - Returns: How many handlers were removed.
    func removeListenToHandlers(of link: EmitterLink, names: [String]?) -> Int {
        var count = 0
        if let names {
            removeHandlers(where: { $0.listener === link && names.contains($0.name) }, didRemove: { _ in count += 1 })
        } else {
            removeHandlers(where: { $0.listener === link }, didRemove: { _ in count += 1 })
        }
        return count
    }

    /// Removes the handlers that match, calling `didRemove` with each, without disturbing a
    /// dispatch in progress (see ``removeHandlers(where:)``).
    @inline(__always)
    private func removeHandlers(
        where shouldRemove: (EventHandler) -> Bool,
        didRemove: (EventHandler) -> Void
    ) {
        guard var unretained = unretainedState else {
            if let forwarder = unretainedLoneForwarder, forwarder._withUnsafeGuaranteedRef(shouldRemove) {
                emitterStorage = .empty
            }
            return
        }
        // A shared state is left only when a handler goes (see ``state``).
        if unretained._withUnsafeGuaranteedRef({ $0.isShared }) {
            guard unretained._withUnsafeGuaranteedRef({ $0.containsHandler(where: shouldRemove) }) else { return }
            unretained = Unmanaged.passUnretained(state)
        }
        // The state lives as long as this emitter, which the caller holds.
        unretained._withUnsafeGuaranteedRef { removeHandlers(in: $0, where: shouldRemove, didRemove: didRemove) }
    }

    /// ``removeHandlers(where:didRemove:)`` with the emitter's state.
    @inline(__always)
    private func removeHandlers(
        in state: EmitterState,
        where shouldRemove: (EventHandler) -> Bool,
        didRemove: (EventHandler) -> Void
    ) {
        func remove(_ handler: EventHandler) -> Bool {
            guard shouldRemove(handler) else { return false }
            didRemove(handler)
            return true
        }
        state.retireIfDispatching()
        if state.allHandlers.contains(where: shouldRemove) { state.allHandlers.removeAll(where: remove) }
        // The only name, all of whose handlers go (the common `stopListening`): the table is
        // emptied in place, keeping its storage for the next handler, without changing the list
        // first.
        if state.handlers.count == 1,
            state.handlers.entries.withUnsafeBufferPointer({ $0[0].value.allSatisfy(shouldRemove) })
        {
            state.handlers.entries.withUnsafeBufferPointer { $0[0].value.forEachInPlace(didRemove) }
            state.handlers.removeAll(keepingCapacity: true)
            return
        }
        var emptiedCount = 0
        var emptiedPosition = 0
        let count = state.handlers.count
        for position in 0..<count
        where state.handlers.entries.withUnsafeBufferPointer({ $0[position].value.contains(where: shouldRemove) }) {
            let isEmpty = state.handlers.modifyValue(at: position) { list in
                list.removeAll(where: remove)
                return list.isEmpty
            }
            if isEmpty {
                emptiedCount += 1
                emptiedPosition = position
            }
        }
        // One emptied name is removed by itself, without partitioning the whole table; when it
        // was the only name, the table is emptied in place.
        if emptiedCount == 1 && state.handlers.count == 1 {
            state.handlers.removeAll(keepingCapacity: true)
        } else if emptiedCount == 1 {
            state.handlers.removeValue(
                forKey: state.handlers.entries.withUnsafeBufferPointer { $0[emptiedPosition].key }
            )
        } else if emptiedCount > 1 {
            state.handlers.removeAll { $0.value.isEmpty }
        }
    }

    /// Removes the handlers whose owner has gone away, as a dispatch found needed.
    func pruneDeadHandlers(in state: EmitterState) {
        state.needsPruning = false
        removeHandlers { $0.isDead }
    }
}
