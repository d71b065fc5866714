/// An emitter's handlers and `listenTo` bookkeeping, kept out of line.
///
/// Most models never have a handler of their own, so an emitter creates its state on the
/// first `on`, `listenTo` or subscription token, and a model whose only handler is its
/// collection's forwarder keeps that one handler inline (``EmitterStorage/forwarder(_:)``):
/// a model that nothing listens to carries one reference instead of the tables.
///
/// The tables opt out of run-time exclusivity checks: no mutating access to them stays open
/// across a call into a handler (dispatch iterates copies), so the checks could never fire,
/// and every event paid for them.
final class EmitterState {
    /// The handlers of each event name but `all`, in registration order.
    @exclusivity(unchecked) var handlers = OrderedStringMap<HandlerList>()
    /// The handlers of `all`, including collection forwarders.
    @exclusivity(unchecked) var allHandlers = HandlerList()
    /// The emitters that this one listens to.
    ///
    /// The emitters that listen to this one need no table of their own: each of their handlers here
    /// refers to its listener.
    @exclusivity(unchecked) var listeningTo = ListeningTable()
    /// Whether a dispatch met a handler whose owner or collection has gone away.
    @exclusivity(unchecked) var needsPruning = false
    /// How many dispatches of the emitter are running, nested ones included.
    ///
    /// A dispatch calls the handlers of a list without retaining them or the list
    /// (``HandlerList/lent``), so changing the tables while one runs keeps them as they were in
    /// ``retired`` until the outermost dispatch ends (``retireIfDispatching()``).
    @exclusivity(unchecked) var dispatchDepth: Int32 = 0
    /// The handler tables that changes replaced during a dispatch, which still hold the
    /// handlers and lists that dispatch lent.
    @exclusivity(unchecked) var retired: ContiguousArray<(OrderedStringMap<HandlerList>, HandlerList)> = []
    /// The stand-in that the emitter's subscription tokens hold, once one was made.
    var link: EmitterLink?
    /// The owners that embed this model and follow it through the marker among its `change`
    /// handlers (``EventHandler/changeMarker``), told when a dispatch reaches the marker; those
    /// of a model that shares its state are in its storage (``EmitterStorage/marked(_:)``).
    var markedLinks: DependentLinks?
    /// What a state that emitters built alike share knows (``EmitterSharing``); `nil` for an
    /// emitter's own state.
    @exclusivity(unchecked) var sharing: EmitterSharing?
    /// The shared state this one was copied from while a dispatch ran on it: kept, because that
    /// dispatch uses it without a reference count and this emitter may have been its last holder.
    @exclusivity(unchecked) private var leftDuringDispatch: EmitterState?

    /// An empty state, of one emitter.
    init() {}

    /// A state with the handlers of `shared`: an emitter's own when it leaves `shared`, with
    /// `markedLinks`, the owners that followed it there; or a root's shared variant
    /// (``EmitterSharing``), made while nothing dispatches on the root.
    init(copying shared: EmitterState, markedLinks: DependentLinks? = nil) {
        handlers = shared.handlers
        allHandlers = shared.allHandlers
        self.markedLinks = markedLinks
        if shared.dispatchDepth > 0 { leftDuringDispatch = shared }
    }

    /// Whether emitters built alike share this state: it has no `listenTo` bookkeeping, link
    /// or marked links, and an emitter copies it before changing its handlers
    /// (``EventEmitter/state``).
    var isShared: Bool { sharing != nil }

    /// ``link`` without a reference count: once made, it stays as long as the state.
    @inline(__always)
    var unretainedLink: Unmanaged<EmitterLink>? {
        guard let link else { return nil }
        return Unmanaged.passUnretained(link)
    }

    /// Whether no handler is registered.
    var hasNoHandlers: Bool { handlers.isEmpty && allHandlers.isEmpty }

    /// Keeps the tables as they are until the outermost dispatch ends, when one is running:
    /// called before adding or removing handlers or replacing a table, so that what a dispatch
    /// lent stays alive (a removed handler still runs, as in Backbone) and a list that it
    /// iterates is copied rather than changed (an added handler does not run).
    @inline(__always)
    func retireIfDispatching() {
        if dispatchDepth > 0 { retired.append((handlers, allHandlers)) }
    }

    /// Ends one dispatch: the outermost one drops the tables retired during it.
    @inline(__always)
    func endDispatch() {
        dispatchDepth &-= 1
        if dispatchDepth == 0 && !retired.isEmpty { dropRetired() }
    }

    /// Drops the retired tables, taken out first: releasing a handler may run a deinit that
    /// reaches this emitter again.
    @inline(never)
    private func dropRetired() {
        var dropped: ContiguousArray<(OrderedStringMap<HandlerList>, HandlerList)> = []
        swap(&dropped, &retired)
    }
}

/// Where an emitter keeps its handlers: nowhere yet, a lone collection forwarder, its
/// ``EmitterState``, or the links of the owners that follow it beside a shared state.
enum EmitterStorage {
    /// No handler and no `listenTo` relationship.
    case empty
    /// Only one collection's forwarder (an `all` handler), the state of a model in one
    /// collection that nothing else listens to.
    case forwarder(EventHandler)
    /// The full tables.
    case state(EmitterState)
    /// The owners that embed the model, with the state that the models built alike share with
    /// the marker among their `change` handlers (``SharingDependentLinks/sharedState``): a model
    /// an identity map built that owners follow, without a state of its own.
    case marked(SharingDependentLinks)
}
