// MARK: - Forwarding to collections

extension EventEmitter {
    /// Makes the collection of `handler`, a collection's forwarder, re-emit `event`
    /// (Backbone's `_onModelEvent`).
    ///
    /// An event that the collection does not act on itself (``Event/isActedOnByCollections``)
    /// goes straight to the collection's dispatch, reached without a reference count: when
    /// the collection has no handler for it, forwarding costs a look at its table, and
    /// otherwise the collection is retained for the dispatch only. Other events go through
    /// ``ModelEventForwarding/forwardModelEvent(_:)``.
    ///
    /// - Returns: `false` when the collection has gone away (the forwarder is dead).
    @inline(__always)
    final func forward(_ event: Event, through handler: EventHandler) -> Bool {
        if handler.forwarderIsAlive, let collection = handler.unretainedForwarder, !event.isActedOnByCollections {
            return collection._withUnsafeGuaranteedRef { $0.dispatchForwarded(event, through: handler) }
        }
        guard let forwarder = handler.forwarder else { return false }
        forwarder.forwardModelEvent(event)
        return true
    }

    /// ``forward(_:through:)`` for a forwarder among other handlers, kept out of line so that
    /// it does not weigh on the dispatch to every other handler.
    @inline(never)
    final func forwardFromList(_ event: Event, through handler: EventHandler) -> Bool {
        forward(event, through: handler)
    }

    /// Dispatches an event that a model forwarded through `handler`, this emitter's
    /// forwarder, on an emitter that nothing may keep alive for the dispatch: it is looked at
    /// without a reference count, and retained (unless its deinit has started, see
    /// ``EventHandler/retainedForwarder()``) only when a handler will run.
    ///
    /// - Returns: `false` when the emitter has gone away (the forwarder is dead).
    private final func dispatchForwarded(_ event: Event, through handler: EventHandler) -> Bool {
        guard let unretained = unretainedState else {
            if isBare { return true }
            guard let forwarder = handler.forwarder else { return false }
            forwarder.forwardModelEvent(event)
            return true
        }
        return unretained._withUnsafeGuaranteedRef { state in
            let position = Self.position(of: event.name, in: &state.handlers)
            if position == nil && state.allHandlers.isEmpty { return true }
            guard let retained = handler.retainedForwarder() else { return false }
            dispatch(event, in: state, at: position)
            _fixLifetime(retained)
            return true
        }
    }
}
