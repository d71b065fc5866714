// MARK: - Model change events

/// Where a model's `change:<attribute>` or `change` event would go, found before the event is
/// built (``EventEmitter/changeEventTarget(named:)``).
///
/// A target is valid until a handler runs: it names positions in handler tables, which only
/// registering and removing handlers change.
enum ChangeEventTarget {
    /// No handler would receive the event: it need not be built.
    case nowhere
    /// The emitter's handlers in `state` (lent, as ``EventEmitter/unretainedState`` reads it):
    /// those of the name at this position (if any), then `all`.
    case handlers(Unmanaged<EmitterState>, at: Int?)
    /// The collection that the emitter's lone forwarder reaches: its handlers of the name at
    /// this position (if any), then its `all` handlers.
    case collection(handlersAt: Int?)
    /// The lone forwarder, by the general path (its collection has gone away, or has no table
    /// of its own).
    case forwarder
}

extension EventEmitter {
    /// Where a model's change event named `name` would go: nowhere when neither the emitter nor
    /// the collection forwarding its events has a handler for it.
    ///
    /// Only for `change:<attribute>` and `change`, which a collection re-emits without acting on
    /// them (``Event/isActedOnByCollections``), so that looking at the collection's handlers
    /// decides. The event is then built only when a handler will receive it, and dispatched with
    /// ``dispatch(_:to:)`` without looking its name up again.
    @inline(__always)
    final func changeEventTarget(named name: String) -> ChangeEventTarget {
        if let unretained = unretainedState {
            return unretained._withUnsafeGuaranteedRef { state in
                let position = Self.position(of: name, in: &state.handlers)
                return position == nil && state.allHandlers.isEmpty ? .nowhere : .handlers(unretained, at: position)
            }
        }
        guard let forwarder = unretainedLoneForwarder else { return .nowhere }
        return forwarder._withUnsafeGuaranteedRef { handler in
            guard handler.forwarderIsAlive, let collection = handler.unretainedForwarder else { return .forwarder }
            return collection._withUnsafeGuaranteedRef { $0.forwardedChangeTarget(named: name) }
        }
    }

    /// The address of the name of the handlers at `position` in `handlers`, reached in place
    /// (see ``position(of:in:)``): valid until the table next changes, and so, once a dispatch
    /// runs, until it ends (``EmitterState/retireIfDispatching()``).
    @inline(__always)
    static func nameAddress(at position: Int, in handlers: inout OrderedStringMap<HandlerList>) -> UnsafePointer<String>
    {
        handlers.keyAddress(at: position)
    }

    /// ``changeEventTarget(named:)`` for the collection that a model's lone forwarder reaches.
    private final func forwardedChangeTarget(named name: String) -> ChangeEventTarget {
        guard let unretained = unretainedState else { return isBare ? .nowhere : .forwarder }
        return unretained._withUnsafeGuaranteedRef { state in
            let position = Self.position(of: name, in: &state.handlers)
            return position == nil && state.allHandlers.isEmpty ? .nowhere : .collection(handlersAt: position)
        }
    }

    /// Dispatches a model's change event to `target`, which ``changeEventTarget(named:)`` found
    /// for its name with no handler run since.
    @inline(__always)
    final func dispatch(_ event: Event, to target: ChangeEventTarget) {
        switch target {
        case .nowhere:
            return
        case .handlers(let state, let position):
            state._withUnsafeGuaranteedRef { dispatchInline(event, in: $0, at: position) }
        case .collection(let position):
            guard let forwarder = unretainedLoneForwarder else { return }
            let isForwarded = forwarder._withUnsafeGuaranteedRef { handler in
                guard let collection = handler.unretainedForwarder else { return false }
                return collection._withUnsafeGuaranteedRef {
                    $0.dispatchForwardedChange(event, through: handler, at: position)
                }
            }
            if !isForwarded { removeDeadForwarders() }
        case .forwarder:
            dispatch(event)
        }
    }

    /// Dispatches a change event that a model forwarded through `handler`, this emitter's
    /// forwarder, to the handlers at `position` and the `all` handlers, with the emitter
    /// retained for the dispatch (see ``EventHandler/retainedForwarder()``).
    ///
    /// - Returns: `false` when the emitter has gone away (the forwarder is dead).
    private final func dispatchForwardedChange(_ event: Event, through handler: EventHandler, at position: Int?) -> Bool
    {
        guard let retained = handler.retainedForwarder() else { return false }
        unretainedState?._withUnsafeGuaranteedRef { dispatch(event, in: $0, at: position) }
        _fixLifetime(retained)
        return true
    }
}
