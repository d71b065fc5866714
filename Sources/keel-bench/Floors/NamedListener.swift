import Synchronization

/// The same-work floor of `listen_stop`'s emitters: `listenTo` by event name and
/// `stopListening`, with the bookkeeping that lets either side go first.
///
/// What Keel's `A.listenTo(B, "change", h)` and `A.stopListening()` observably do, through an
/// API of the same shape, where the machine floor (``SlotEmitter``) takes slot numbers and
/// retains both sides:
/// - the handler is found by the event's name on the target (a linear search of its names,
///   as ``NamedHandlers``), so that `B.trigger("change")` reaches it;
/// - neither emitter keeps the other alive (Keel's handlers and relationships reach each side
///   through a link its `deinit` clears), and a listener that goes stops listening;
/// - `listenTo` returns a token with an identifier unique for the process (Keel's
///   `Subscription`: one atomic counter) that reaches the target;
/// - the listener records each relationship by the target's identity with the number of its
///   handlers there, and `stopListening()` removes, on every target still alive, the handlers
///   it registered, then forgets the relationships.
///
/// Handlers are values in the target's lists (no object per handler); emptied lists keep
/// their capacity, so listening again allocates nothing. It splits no names on spaces (the
/// workload's names have none), as ``NamedEmitter`` does not.
final class NamedListener {
    /// What a handler receives.
    struct Event {
        /// The event's name.
        let name: String
    }

    /// An emitter as its listeners' handlers and its tokens reach it: cleared when it goes.
    ///
    /// Unretained: the emitter's `deinit` clears it, so it never reaches a dead one.
    final class Link {
        var emitter: Unmanaged<NamedListener>?
    }

    /// One registered closure, with its registration's identifier and its listener.
    struct Handler {
        let id: Int
        let listener: Link
        let callback: (Event) -> Void
    }

    /// One `listenTo` relationship as the listener records it.
    struct Listening {
        let target: ObjectIdentifier
        let targetLink: Link
        var count: Int
    }

    /// What `listenTo` returns: the registration's identifier and the target's link.
    struct Token {
        let id: Int
        let link: Link
    }

    /// The last registration identifier handed out.
    private static let lastID = Atomic<Int>(0)

    /// This emitter's link.
    let link = Link()
    /// The event names that have handlers here, by position.
    @exclusivity(unchecked) private var names: ContiguousArray<String> = []
    /// The handlers of each name's position.
    @exclusivity(unchecked) private var lists: ContiguousArray<ContiguousArray<Handler>> = []
    /// The emitters this one listens to.
    @exclusivity(unchecked) private(set) var listeningTo: ContiguousArray<Listening> = []

    init() {
        link.emitter = Unmanaged.passUnretained(self)
    }

    deinit {
        stopListening()
        link.emitter = nil
    }

    /// Whether no handler is registered for any name.
    var hasNoHandlers: Bool { lists.allSatisfy(\.isEmpty) }

    /// Registers `callback` on `target` for the event `name`, as this emitter's, and records
    /// the relationship.
    @inline(never)
    @discardableResult
    func listenTo(_ target: NamedListener, _ name: String, _ callback: @escaping (Event) -> Void) -> Token {
        let id = Self.lastID.wrappingAdd(1, ordering: .relaxed).newValue
        target.add(Handler(id: id, listener: link, callback: callback), named: name)
        let key = ObjectIdentifier(target)
        if let position = listeningTo.firstIndex(where: { $0.target == key }) {
            listeningTo[position].count += 1
        } else {
            listeningTo.append(Listening(target: key, targetLink: target.link, count: 1))
        }
        return Token(id: id, link: target.link)
    }

    /// Removes, on every target still alive, the handlers this emitter registered there, and
    /// forgets the relationships.
    ///
    /// The relationships and the targets are lent, not retained: this emitter holds the one
    /// and each live target's link reaches it.
    @inline(never)
    func stopListening() {
        let count = listeningTo.count
        guard count > 0 else { return }
        listeningTo.withUnsafeBufferPointer { relationships in
            for index in 0..<count {
                relationships[index].targetLink.emitter?._withUnsafeGuaranteedRef { $0.removeHandlers(of: link) }
            }
        }
        if count == 1 {
            listeningTo.removeLast()
        } else {
            listeningTo.removeAll(keepingCapacity: true)
        }
    }

    /// Calls the handlers of `name` over a snapshot of its list.
    func trigger(_ name: String) {
        guard let position = names.firstIndex(of: name) else { return }
        let event = Event(name: name)
        for handler in lists[position] { handler.callback(event) }
    }

    /// Appends `handler` to the list of `name`.
    private func add(_ handler: Handler, named name: String) {
        if let position = names.withUnsafeBufferPointer({ $0.firstIndex(of: name) }) {
            lists[position].append(handler)
        } else {
            names.append(name)
            lists.append([handler])
        }
    }

    /// Removes the handlers whose listener is `listener`; a list that holds only theirs is
    /// emptied in place, keeping its capacity.
    private func removeHandlers(of listener: Link) {
        for position in lists.indices {
            let onlyTheirs = lists[position].withUnsafeBufferPointer { handlers in
                handlers.allSatisfy { $0.listener === listener }
            }
            if onlyTheirs {
                for _ in 0..<lists[position].count { lists[position].removeLast() }
            } else {
                lists[position].removeAll { $0.listener === listener }
            }
        }
    }
}
