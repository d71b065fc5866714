/// Handlers by event name: the same-work floor of an emitter's table, where the machine
/// floor's handlers are in arrays by event slot (``SlotEmitter``).
///
/// Keel's `on` and `trigger` (like Backbone's) take an event's name, so the table finds a
/// name's handlers by comparing names: a linear search, the fastest for the few names an
/// emitter has (a short name compares as two words). A dispatch calls the handlers of a
/// snapshot of the list, the list retained for the dispatch: a handler may register or
/// remove handlers of the same emitter while it runs, which in safe Swift must not free
/// the list being called, and a handler added during a trigger does not run in it
/// (Backbone's snapshot).
///
/// Each handler is an object of the emitter's own handler class, called by the emitter
/// (``dispatch(at:_:)`` lends it without a retain): a closure stored in a generic table would
/// be called through a reabstraction thunk.
struct NamedHandlers<Handler: AnyObject> {
    /// The keys the table finds handlers by, by position: the event names, or for a
    /// collection's `change:<attribute>` handlers the attributes' names.
    private var keys: ContiguousArray<String> = []
    /// The event name of each position, which its handlers receive.
    private var eventNames: ContiguousArray<String> = []
    /// The handlers of each position.
    private var lists: ContiguousArray<ContiguousArray<Handler>> = []

    /// Registers `handler` for the event `eventName`, found by `key` (the event's name unless
    /// given).
    mutating func on(_ eventName: String, key: String? = nil, _ handler: Handler) {
        let key = key ?? eventName
        if let position = position(of: key) {
            lists[position].append(handler)
        } else {
            keys.append(key)
            eventNames.append(eventName)
            lists.append([handler])
        }
    }

    /// The position of the handlers found by `key`, or `nil` when there are none.
    ///
    /// `mutating` (it changes nothing) so that an emitter reaches its table in place: read as a
    /// value out of the emitter object, the table was retained and released around each lookup.
    @inline(__always)
    mutating func position(of key: String) -> Int? {
        keys.firstIndex(of: key)
    }

    /// The name of the event at `position`.
    @inline(__always)
    func eventName(at position: Int) -> String {
        eventNames[position]
    }

    /// Calls `call` with each handler at `position`, in order, over a snapshot of the list.
    ///
    /// `mutating` (it changes nothing) for the reason ``position(of:)`` is.
    @inline(__always)
    mutating func dispatch(at position: Int, _ call: (Handler) -> Void) {
        let snapshot = lists[position]
        snapshot.withUnsafeBufferPointer { handlers in
            for index in handlers.indices {
                Unmanaged.passUnretained(handlers[index])._withUnsafeGuaranteedRef(call)
            }
        }
    }
}
