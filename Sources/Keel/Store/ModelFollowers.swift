/// One handler per event name, shared by every model it is added to: how a ``Store``'s
/// class and an ``IdentityMap`` follow thousands of models without registering a closure,
/// a handler and a weak reference for each.
///
/// Each handler receives the model in the event (``Event/model``); the owner, when given,
/// is held weakly once, by the shared handler, and a handler whose owner has gone is
/// dropped by the model's next dispatch of its name, as any owned handler is.
///
/// Models built alike have the same handler table when they are followed (none, or the same
/// shared one), and following them gives the same table: the followers remember the last
/// table they were given and the table that gave, and hand a model with that very table
/// (the same storage, shared copy-on-write) the same result, without adding handler by
/// handler (which cost a tenth of loading a record into a store).
///
/// A class: an identity map copies its followers out of its two recent ones for every model it
/// follows, and as a struct of the handlers and the last tables that copy cost two retains and
/// two releases.
final class ModelFollowers {
    /// The shared handlers, one per followed name.
    private let handlers: [EventHandler]
    // The last handler table the handlers were added to, before and after; kept, so that its
    // storage cannot be freed and reused by another table while it is compared with.
    @exclusivity(unchecked) private var lastBefore: OrderedStringMap<HandlerList>?
    @exclusivity(unchecked) private var lastAfter: OrderedStringMap<HandlerList>?
    /// The state the followed models that had no handler share: the shared handlers alone,
    /// made on first use (``EmitterSharing``).
    @exclusivity(unchecked) private var madeSharedState: EmitterState?

    /// No handlers: follows nothing.
    init() {
        handlers = []
    }

    /// Handlers for `names`: `sync`, when among them, runs `sync`, every other name
    /// `callback`.
    ///
    /// With `isBookkeeping`, `off()` leaves the handlers in place and a model tells its
    /// `destroy` handler of its deinit (``Model/leaveIdentityMaps()``).
    init(
        names: [String],
        owner: AnyObject? = nil,
        isBookkeeping: Bool = false,
        callback: @escaping (Event) -> Void,
        sync: ((Event) -> Void)? = nil
    ) {
        let id = EventEmitter.makeUniqueID()
        handlers = names.map { name in
            let body = name == "sync" ? sync ?? callback : callback
            return EventHandler(
                id: id,
                name: name,
                callback: body,
                owner: owner,
                isOnce: false,
                isBookkeeping: isBookkeeping
            )
        }
    }

    deinit {
        madeSharedState?.endSharing()
    }

    /// Starts following `model`: adds each shared handler to its table, unless the model
    /// has it already (a model released and held again keeps its `sync` handler).
    ///
    /// A model without handlers takes the state shared by the followed models that had none,
    /// instead of a state of its own.
    func add(to model: Model) {
        if case .empty = model.emitterStorage {
            model.emitterStorage = .state(sharedState(for: model))
            return
        }
        let state = model.state
        if let before = lastBefore, let after = lastAfter, state.handlers.isIdentical(to: before) {
            // A dispatch in progress iterates the lists of the table replaced (``HandlerList/lent``).
            state.retireIfDispatching()
            state.handlers = after
            return
        }
        // Only a table no model has alone (none, or one these or other followers handed out)
        // is remembered: a model's own table may hold the app's handlers, which must not be
        // kept alive here after the model is gone.
        let isShared = state.handlers.isEmpty || !state.handlers.hasUniqueStorage()
        let before = state.handlers
        defer {
            if isShared {
                lastBefore = before
                lastAfter = state.handlers
            }
        }
        if state.handlers.isEmpty {
            state.handlers.reserveCapacity(handlers.count + 2)
            for handler in handlers { model.add(handler, named: handler.name, in: state) }
            return
        }
        for handler in handlers {
            let position = EventEmitter.position(of: handler.name, in: &state.handlers)
            if let position, state.handlers.value(at: position).contains(where: { $0 === handler }) { continue }
            model.add(handler, named: handler.name, in: state)
        }
    }

    /// The state shared by the followed models that had no handler; `model` is one of them.
    private func sharedState(for model: Model) -> EmitterState {
        if let madeSharedState { return madeSharedState }
        let table = EmitterState()
        // Room for what a model adds once it copies the table (an owner's marker, the app's handlers).
        table.handlers.reserveCapacity(handlers.count + 2)
        for handler in handlers { model.add(handler, named: handler.name, in: table) }
        let made = EmitterState.sharedRoot(handlers: table.handlers, allHandlers: table.allHandlers)
        madeSharedState = made
        return made
    }

    /// Stops following `model`, but for the handler of `kept`, when given.
    func remove(from model: Model, keeping kept: String? = nil) {
        guard let id = handlers.first?.id else { return }
        if let kept {
            model.removeHandlers { $0.id == id && $0.name != kept }
        } else {
            model.removeHandlers { $0.id == id }
        }
    }
}
