/// What a handler state shared by emitters built alike knows: the models an identity map builds
/// and a collection holds have the same handlers (the map's followers and the collection's
/// forwarder), so they share one ``EmitterState`` instead of making one each.
///
/// A shared state is made by ``ModelFollowers`` for the models it follows that have no handler
/// yet (the *root*: the followers' handlers alone), and from the root for those of them that a
/// collection then holds (the root's handlers and that collection's forwarder in `all`, made
/// once for the last forwarder and handed to every model it is added to). Nothing changes a
/// shared state's handlers: an emitter that registers or removes a handler, or listens, first
/// copies it into a state of its own (``EventEmitter/state``), as a model that had its own
/// state from the start would have it. Removing the forwarder a shared state added goes back to
/// the state it was made from.
///
/// A root also makes, once, the state of its handlers with the marker among the `change`
/// handlers (``EventHandler/changeMarker``), which the models that owners embed share
/// (``EmitterStorage/marked(_:)``), each keeping its owners' links in its storage instead of a
/// state of its own.
///
/// The root keeps the states made from it, which keep the root: the followers that made the
/// root end that cycle when they go (``endSharing()``), and a root that makes a state for
/// another forwarder lets the previous one go.
///
/// Its fields opt out of run-time exclusivity checks, as the state's do: no access to them stays
/// open across a call into a handler, and adding a model to a collection reads them.
final class EmitterSharing {
    /// The shared state this one was made from by adding ``forwarder`` or, without one, the
    /// marker; `nil` for a root.
    let base: EmitterState?
    /// Whether this is a root's sharing (``base`` is `nil`), read without loading the base.
    let isRoot: Bool
    /// The collection forwarder this state added to its base's `all` handlers, held by that
    /// list.
    unowned(unsafe) let forwarder: EventHandler?
    /// The state last made from this root for a forwarder (``EmitterState/sharedAdding(_:)``).
    @exclusivity(unchecked) var withForwarder: EmitterState?
    /// The identity of the forwarder ``withForwarder`` added, which its `all` handlers hold.
    ///
    /// Compared without reaching into that state, and by identity alone: an `unowned(unsafe)`
    /// reference was retained and released to be compared, for every model a collection added.
    @exclusivity(unchecked) var withForwarderKey: ObjectIdentifier?
    /// The state made from this root with the marker among its `change` handlers
    /// (``EmitterState/sharedMarking(for:)``).
    @exclusivity(unchecked) var withMarker: EmitterState?

    /// The sharing of a root, or of a state that adds `forwarder` to `base`.
    init(base: EmitterState? = nil, forwarder: EventHandler? = nil) {
        self.base = base
        isRoot = base == nil
        self.forwarder = forwarder
    }
}

extension EmitterState {
    /// A root shared state with the handlers of `handlers` (see ``EmitterSharing``).
    static func sharedRoot(handlers: OrderedStringMap<HandlerList>, allHandlers: HandlerList) -> EmitterState {
        let root = EmitterState()
        root.handlers = handlers
        root.allHandlers = allHandlers
        root.sharing = EmitterSharing()
        return root
    }

    /// The shared state of this root's handlers with `forwarder` last among the `all`
    /// handlers: the one made for the previous model the forwarder was added to, or a new one.
    ///
    /// - Returns: `nil` when this state is not a root, or no emitter may leave it now (a
    ///   dispatch is running on it, which holds it without a reference count).
    func sharedAdding(_ forwarder: EventHandler) -> EmitterState? {
        guard dispatchDepth == 0, let unretained = unretainedSharing else { return nil }
        return unretained._withUnsafeGuaranteedRef { sharing in
            guard sharing.isRoot else { return nil }
            if sharing.withForwarderKey == ObjectIdentifier(forwarder), let made = sharing.withForwarder { return made }
            return makeShared(adding: forwarder, to: sharing)
        }
    }

    /// ``sharedAdding(_:)`` for a forwarder the root has no state for yet: out of line, as it
    /// runs once per collection.
    @inline(never)
    private func makeShared(adding forwarder: EventHandler, to sharing: EmitterSharing) -> EmitterState {
        let made = EmitterState(copying: self)
        made.allHandlers.append(forwarder)
        made.sharing = EmitterSharing(base: self, forwarder: forwarder)
        sharing.withForwarder = made
        sharing.withForwarderKey = ObjectIdentifier(forwarder)
        return made
    }

    /// The shared state of this root's handlers with the marker last among the `change`
    /// handlers, for `emitter`, one of the emitters that share this root, whose owners follow it.
    ///
    /// - Returns: `nil` when this state is not a root, or no emitter may leave it now (a
    ///   dispatch is running on it, which holds it without a reference count).
    func sharedMarking(for emitter: EventEmitter) -> EmitterState? {
        guard dispatchDepth == 0, let unretained = unretainedSharing else { return nil }
        return unretained._withUnsafeGuaranteedRef { sharing in
            guard sharing.isRoot else { return nil }
            if let made = sharing.withMarker { return made }
            return makeSharedMarking(for: emitter, in: sharing)
        }
    }

    /// ``sharedMarking(for:)`` for a root that has no marked state yet: out of line, as it runs
    /// once per root.
    @inline(never)
    private func makeSharedMarking(for emitter: EventEmitter, in sharing: EmitterSharing) -> EmitterState {
        let made = EmitterState(copying: self)
        emitter.add(EventHandler.changeMarker, named: "change", in: made)
        made.sharing = EmitterSharing(base: self)
        sharing.withMarker = made
        return made
    }

    /// ``sharing`` without a reference count: the state keeps it for its whole life.
    @inline(__always)
    private var unretainedSharing: Unmanaged<EmitterSharing>? {
        guard let sharing else { return nil }
        return Unmanaged.passUnretained(sharing)
    }

    /// The shared state this one was made from by adding `forwarder`, when it was and no
    /// dispatch is running on it; `nil` otherwise.
    func sharedRemoving(_ forwarder: EventHandler) -> EmitterState? {
        guard let sharing, sharing.forwarder === forwarder, dispatchDepth == 0 else { return nil }
        return sharing.base
    }

    /// The forwarder this shared state added to its base, when its collection has gone away.
    var deadSharedForwarder: EventHandler? {
        guard let forwarder = sharing?.forwarder, forwarder.isDead else { return nil }
        return forwarder
    }

    /// Whether any handler, in `all` or of a name, matches.
    func containsHandler(where matches: (EventHandler) -> Bool) -> Bool {
        allHandlers.contains(where: matches) || handlers.entries.contains { $0.value.contains(where: matches) }
    }

    /// Lets go of the states made from this root, which hold the root: called by the followers
    /// that made the root, when they go.
    func endSharing() {
        sharing?.withForwarder = nil
        sharing?.withForwarderKey = nil
        sharing?.withMarker = nil
    }
}
