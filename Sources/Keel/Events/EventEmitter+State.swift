/// Where an emitter keeps its handlers (``EmitterStorage``): reading the state, making one of the
/// emitter's own, and the link its subscription tokens hold.
extension EventEmitter {
    /// The emitter's own state, created on first use (taking over a lone forwarder), or copied
    /// from the state it shares with emitters built alike (``EmitterSharing``): what registers,
    /// removes or listens changes this one.
    var state: EmitterState {
        switch emitterStorage {
        case .state(let state):
            if state.isShared { return ownState(copying: state) }
            return state
        case .marked(let links):
            return ownState(leaving: links)
        case .empty:
            let state = EmitterState()
            emitterStorage = .state(state)
            return state
        case .forwarder(let forwarder):
            let state = EmitterState()
            state.allHandlers.append(forwarder)
            emitterStorage = .state(state)
            return state
        }
    }

    /// ``state`` for an emitter that shares `shared`: out of line, so that the common path, which
    /// finds a state of the emitter's own, stays small.
    @inline(never)
    private func ownState(copying shared: EmitterState) -> EmitterState {
        let own = EmitterState(copying: shared)
        emitterStorage = .state(own)
        return own
    }

    /// ``state`` for a marked emitter (``EmitterStorage/marked(_:)``): a copy of the state it
    /// shares, which keeps its owners' links.
    @inline(never)
    private func ownState(leaving links: SharingDependentLinks) -> EmitterState {
        let own = EmitterState(copying: links.sharedState, markedLinks: links)
        emitterStorage = .state(own)
        return own
    }

    /// The collection forwarder that is the emitter's only handler, without a reference
    /// count: it is read, not kept, by a dispatch (see ``forward(_:through:)``).
    @inline(__always)
    var unretainedLoneForwarder: Unmanaged<EventHandler>? {
        if case .forwarder(let handler) = emitterStorage { return Unmanaged.passUnretained(handler) }
        return nil
    }

    /// Whether the emitter has no handler and no `listenTo` relationship.
    var isBare: Bool {
        if case .empty = emitterStorage { return true }
        return false
    }

    /// The emitter's state if it has been created, possibly shared with emitters built alike
    /// (``EmitterState/isShared``): for reading, and for dispatching.
    var existingState: EmitterState? {
        if case .state(let state) = emitterStorage { return state }
        return unretainedMarkedState?.takeUnretainedValue()
    }

    /// The state without a reference count, or `nil` before it exists; possibly shared, like
    /// ``existingState``.
    ///
    /// Once created, the state lives as long as the caller keeps the emitter: dispatch uses it
    /// without retaining it around every handler. An emitter leaves a shared state only for one
    /// that keeps it while a dispatch runs on it (``EmitterState/init(copying:)``), or when none
    /// does (``EmitterState/sharedAdding(_:)``).
    @inline(__always)
    var unretainedState: Unmanaged<EmitterState>? {
        switch emitterStorage {
        case .state(let state): return Unmanaged.passUnretained(state)
        case .empty, .forwarder: return nil
        case .marked: return unretainedMarkedState
        }
    }

    /// The state a marked emitter shares (``EmitterStorage/marked(_:)``), without a reference
    /// count, or `nil` for another emitter.
    ///
    /// Out of line: inlined, reading it through the links grew every dispatch's and set's
    /// reading of the state, and moved what the optimizer inlined around them.
    var unretainedMarkedState: Unmanaged<EmitterState>? {
        @inline(never) get {
            guard case .marked(let links) = emitterStorage else { return nil }
            return Unmanaged.passUnretained(links.sharedState)
        }
    }

    /// The stand-in that this emitter's subscription tokens hold, created on first use.
    var link: EmitterLink { link(in: state) }

    /// The emitter's state and link, each created on first use, without reference counts.
    ///
    /// Once created, the state stays until the emitter is deallocated, and keeps the link: both live
    /// as long as the caller keeps the emitter, so a `listenTo` uses them without retaining them.
    ///
    /// Not inlined: inlined into a `listenTo`, the caller retained and released what it read.
    var unretainedStateAndLink: (state: Unmanaged<EmitterState>, link: Unmanaged<EmitterLink>) {
        @inline(never) get {
            if case .state(let state) = emitterStorage, let link = state.link {
                return (Unmanaged.passUnretained(state), Unmanaged.passUnretained(link))
            }
            return makeStateAndLink()
        }
    }

    /// ``unretainedStateAndLink`` when the state or the link is still to be made: out of line,
    /// so that the common path, which finds both, saves no registers for making them.
    @inline(never)
    private func makeStateAndLink() -> (state: Unmanaged<EmitterState>, link: Unmanaged<EmitterLink>) {
        let state = self.state
        return (Unmanaged.passUnretained(state), Unmanaged.passUnretained(link(in: state)))
    }

    /// The stand-in of this emitter, whose state is `state`, created on first use.
    func link(in state: EmitterState) -> EmitterLink {
        if let link = state.link { return link }
        let link = EmitterLink(self)
        state.link = link
        return link
    }
}
