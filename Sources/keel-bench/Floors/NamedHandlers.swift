/// Handlers by event name: the same-work floor of an emitter's table, where the machine
/// floor's handlers are in arrays by event slot (``SlotEmitter``).
///
/// Keel's `on` and `trigger` (like Backbone's) take an event's name, so the table finds a
/// name's handlers by comparing names: a linear search, the fastest for the few names an
/// emitter has (a short name compares as two words). A dispatch calls the handlers of a
/// snapshot of the list, the list retained for the dispatch: a handler may register or
/// remove handlers of the same emitter while it runs, which in safe Swift must not free
/// the list being called, and a handler added during a trigger does not run in it
/// (Backbone's snapshot). Each handler is an object, so a call borrows its closure.
struct NamedHandlers {
    /// One registered closure.
    final class Handler {
        let call: (NamedEvent) -> Void

        init(_ call: @escaping (NamedEvent) -> Void) {
            self.call = call
        }
    }

    /// The keys the table finds handlers by, by position: the event names, or for a
    /// collection's `change:<attribute>` handlers the attributes' names.
    private var keys: ContiguousArray<String> = []
    /// The event name of each position, which its handlers receive.
    private var eventNames: ContiguousArray<String> = []
    /// The handlers of each position.
    private var lists: ContiguousArray<ContiguousArray<Handler>> = []

    /// Registers `call` for the event `eventName`, found by `key` (the event's name unless given).
    mutating func on(_ eventName: String, key: String? = nil, _ call: @escaping (NamedEvent) -> Void) {
        let key = key ?? eventName
        if let position = position(of: key) {
            lists[position].append(Handler(call))
        } else {
            keys.append(key)
            eventNames.append(eventName)
            lists.append([Handler(call)])
        }
    }

    /// The position of the handlers found by `key`, or `nil` when there are none.
    @inline(__always)
    func position(of key: String) -> Int? {
        keys.firstIndex(of: key)
    }

    /// The name of the event at `position`.
    @inline(__always)
    func eventName(at position: Int) -> String {
        eventNames[position]
    }

    /// Calls the handlers at `position` with `event`, in order, over a snapshot of the list.
    @inline(__always)
    func dispatch(at position: Int, _ event: NamedEvent) {
        let snapshot = lists[position]
        snapshot.withUnsafeBufferPointer { handlers in
            for index in handlers.indices {
                Unmanaged.passUnretained(handlers[index])._withUnsafeGuaranteedRef { $0.call(event) }
            }
        }
    }
}
