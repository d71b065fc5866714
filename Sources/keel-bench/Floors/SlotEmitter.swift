/// The fastest floor of `listenTo` and `stopListening`: handlers in arrays by event slot,
/// the targets a listener listens to in an array.
///
/// The event names are known, so each is a slot number (the callers name them with
/// constants) and an emitter's handlers are an array per slot, without hashing a name.
/// A listener remembers its targets in an array and tags the handlers it registers with
/// its identity, so that it can remove them. Removing keeps the arrays' capacity, so
/// listening again allocates nothing. Its tables opt out of run-time exclusivity checks,
/// as Keel's emitters do.
final class SlotEmitter {
    /// One registered closure and the emitter that registered it through `listenTo`.
    struct Handler {
        let owner: ObjectIdentifier?
        let callback: (Int) -> Void
    }

    /// The handlers, by event slot.
    @exclusivity(unchecked) private(set) var handlers: ContiguousArray<ContiguousArray<Handler>>
    /// The emitters this one listens to, each once.
    @exclusivity(unchecked) private(set) var listeningTo: ContiguousArray<SlotEmitter> = []

    /// Creates an emitter of `eventCount` events, numbered from 0.
    init(eventCount: Int) {
        handlers = ContiguousArray(repeating: [], count: eventCount)
    }

    /// Whether no handler is registered for any event.
    var hasNoHandlers: Bool { handlers.allSatisfy(\.isEmpty) }

    /// Calls every closure registered for the event in `slot` with `value`.
    func trigger(_ slot: Int, _ value: Int) {
        for handler in handlers[slot] { handler.callback(value) }
    }

    /// Registers `callback` on `target` for the event in `slot` and remembers the target.
    func listenTo(_ target: SlotEmitter, _ slot: Int, _ callback: @escaping (Int) -> Void) {
        if !listeningTo.contains(where: { $0 === target }) { listeningTo.append(target) }
        target.handlers[slot].append(Handler(owner: ObjectIdentifier(self), callback: callback))
    }

    /// Removes everything this emitter registered on others; a list that holds only this
    /// emitter's handlers is emptied in place, keeping its capacity.
    func stopListening() {
        let owner = ObjectIdentifier(self)
        let count = listeningTo.count
        listeningTo.withUnsafeBufferPointer { targets in
            for index in 0..<count {
                Unmanaged.passUnretained(targets[index])._withUnsafeGuaranteedRef { $0.removeHandlers(of: owner) }
            }
        }
        if count == 1 {
            listeningTo.removeLast()
        } else {
            listeningTo.removeAll(keepingCapacity: true)
        }
    }

    /// Removes the handlers that `owner` registered.
    private func removeHandlers(of owner: ObjectIdentifier) {
        for slot in handlers.indices {
            let onlyTheirs = handlers[slot].withUnsafeBufferPointer { list in list.allSatisfy { $0.owner == owner } }
            if onlyTheirs {
                for _ in 0..<handlers[slot].count { handlers[slot].removeLast() }
            } else {
                handlers[slot].removeAll { $0.owner == owner }
            }
        }
    }
}
