/// The floor of Keel's `EventEmitter`: named events in plain Swift.
///
/// Closures by event name, each with an owner tag so that a listener can remove what it
/// registered.
final class PlainEmitter {
    /// One registered closure and the emitter that registered it through `listenTo`.
    struct Handler {
        let owner: ObjectIdentifier?
        let callback: (Int) -> Void
    }

    private(set) var handlers: [String: [Handler]] = [:]
    /// The emitters this one listens to, by identity.
    private(set) var listeningTo: [ObjectIdentifier: PlainEmitter] = [:]

    /// Registers `callback` for the event `name`.
    func on(_ name: String, owner: PlainEmitter? = nil, _ callback: @escaping (Int) -> Void) {
        handlers[name, default: []].append(Handler(owner: owner.map(ObjectIdentifier.init), callback: callback))
    }

    /// Calls every closure registered for `name` with `value`.
    func trigger(_ name: String, _ value: Int) {
        guard let list = handlers[name] else { return }
        for handler in list { handler.callback(value) }
    }

    /// Registers `callback` on `target` and remembers the target.
    func listenTo(_ target: PlainEmitter, _ name: String, _ callback: @escaping (Int) -> Void) {
        listeningTo[ObjectIdentifier(target)] = target
        target.on(name, owner: self, callback)
    }

    /// Removes everything this emitter registered on others.
    func stopListening() {
        for target in listeningTo.values { target.removeHandlers(ownedBy: self) }
        listeningTo.removeAll()
    }

    private func removeHandlers(ownedBy owner: PlainEmitter) {
        let ownerID = ObjectIdentifier(owner)
        for (name, list) in handlers {
            let kept = list.filter { $0.owner != ownerID }
            handlers[name] = kept.isEmpty ? nil : kept
        }
    }
}
