/// The same-work floor of `trigger_10`'s emitter: handlers found by the event's name, each
/// called with an event that carries the name and the argument, then the `all` handlers.
///
/// What Keel's `trigger("ping", .int(i))` observably does, through an API of the same shape:
/// the name is looked up in the emitter's table (``NamedHandlers``), a handler receives an
/// event with the name and the argument as a JSON value (Keel's `Event.value`, here a
/// ``PlainValue``) and reads the integer out of it, handlers run over a snapshot of the list
/// (one registered or removed while it runs cannot free the list; Backbone's order), and
/// `all` handlers, which Keel and Backbone call for every event, run after them (none are
/// registered in the workload: one test of an empty list).
final class NamedEmitter {
    /// What a handler receives.
    struct Event {
        /// The event's name.
        let name: String
        /// The trigger's argument.
        let value: PlainValue?
    }

    /// One registered closure, in an object so that a call borrows it.
    final class Handler {
        let call: (Event) -> Void

        init(_ call: @escaping (Event) -> Void) {
            self.call = call
        }
    }

    /// The handlers by name.
    @exclusivity(unchecked) private var handlers = NamedHandlers<Handler>()
    /// The handlers of every event (`all`).
    @exclusivity(unchecked) private var allHandlers = NamedHandlers<Handler>()

    /// Registers `call` for the event `name` (`"all"`: for every event).
    func on(_ name: String, _ call: @escaping (Event) -> Void) {
        if name == "all" {
            allHandlers.on(name, Handler(call))
        } else {
            handlers.on(name, Handler(call))
        }
    }

    /// Calls the handlers of `name`, then the `all` handlers, with an event of `name` and `value`.
    @inline(never)
    func trigger(_ name: String, _ value: PlainValue) {
        let event = Event(name: name, value: value)
        if let position = handlers.position(of: name) { handlers.dispatch(at: position) { $0.call(event) } }
        if let position = allHandlers.position(of: "all") { allHandlers.dispatch(at: position) { $0.call(event) } }
    }
}
