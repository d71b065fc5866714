/// The handlers of one event name, in registration order.
///
/// Most lists hold one handler (a model's forwarder to its collection, a single listener),
/// so a lone handler is stored as it is, without an array: adding a model to a collection
/// or a first listener allocates nothing more. A dispatch iterates the list as it was when
/// the dispatch reached it without a reference count (``lent``): the emitter keeps the
/// tables that changes during a dispatch would replace (``EmitterState/retireIfDispatching()``).
struct HandlerList {
    private enum Storage {
        case empty
        case one(EventHandler)
        /// Two or more handlers.
        case many(ContiguousArray<EventHandler>)
    }

    private var storage = Storage.empty

    init() {}

    init(_ handler: EventHandler) {
        storage = .one(handler)
    }

    var isEmpty: Bool {
        if case .empty = storage { return true }
        return false
    }

    /// Whether `handler` is the list's only handler.
    func isOnly(_ handler: EventHandler) -> Bool {
        if case .one(let only) = storage { return only === handler }
        return false
    }

    var count: Int {
        switch storage {
        case .empty: return 0
        case .one: return 1
        case .many(let handlers): return handlers.count
        }
    }

    mutating func append(_ handler: EventHandler) {
        switch storage {
        case .empty:
            storage = .one(handler)
        case .one(let first):
            storage = .many([first, handler])
        case .many(var handlers):
            storage = .empty
            handlers.append(handler)
            storage = .many(handlers)
        }
    }

    func contains(where matches: (EventHandler) -> Bool) -> Bool {
        switch storage {
        case .empty: return false
        case .one(let handler): return matches(handler)
        case .many(let handlers): return handlers.contains(where: matches)
        }
    }

    /// Whether every handler matches (`true` for an empty list).
    func allSatisfy(_ matches: (EventHandler) -> Bool) -> Bool {
        switch storage {
        case .empty: return true
        case .one(let handler): return matches(handler)
        case .many(let handlers): return handlers.allSatisfy(matches)
        }
    }

    /// Calls `body` with each handler in order, the list staying as it is (unlike
    /// ``forEach(_:)``, which consumes a snapshot).
    func forEachInPlace(_ body: (EventHandler) -> Void) {
        switch storage {
        case .empty: return
        case .one(let handler): body(handler)
        case .many(let handlers): handlers.forEach(body)
        }
    }

    /// Removes the handlers that match, keeping the order of the rest; `shouldRemove` is
    /// called once per handler, in order.
    mutating func removeAll(where shouldRemove: (EventHandler) -> Bool) {
        switch storage {
        case .empty:
            return
        case .one(let handler):
            if Unmanaged.passUnretained(handler)._withUnsafeGuaranteedRef(shouldRemove) { storage = .empty }
        case .many(var handlers):
            storage = .empty
            handlers.removeAll(where: shouldRemove)
            self = HandlerList(handlers)
        }
    }

    /// Removes the first handler that matches.
    mutating func removeFirst(where matches: (EventHandler) -> Bool) {
        switch storage {
        case .empty:
            return
        case .one(let handler):
            if matches(handler) { storage = .empty }
        case .many(var handlers):
            guard let index = handlers.firstIndex(where: matches) else { return }
            storage = .empty
            handlers.remove(at: index)
            self = HandlerList(handlers)
        }
    }

    /// A list of `handlers`, in the smallest form.
    private init(_ handlers: ContiguousArray<EventHandler>) {
        switch handlers.count {
        case 0: storage = .empty
        case 1: storage = .one(handlers[0])
        default: storage = .many(handlers)
        }
    }

    /// The list for one dispatch, lent without a reference count: its lone handler, or the
    /// elements of its array.
    ///
    /// What is lent stays alive and unchanged because every change to an emitter's tables during
    /// a dispatch first keeps the tables as they were until the dispatch ends
    /// (``EmitterState/retireIfDispatching()``): a handler removed during the dispatch still
    /// runs, and the array of several is neither freed nor changed in place, so one added does
    /// not run (Backbone's snapshot). The buffer is used after `withUnsafeBufferPointer`
    /// returns for that reason: the storage it points into is kept as it is until the dispatch
    /// ends. Retaining the array instead cost every dispatch of several handlers a retain and a
    /// release.
    @inline(__always)
    var lent: LentHandlers {
        switch storage {
        case .empty: return .none
        case .one(let handler): return .one(Unmanaged.passUnretained(handler))
        case .many(let handlers): return .many(handlers.withUnsafeBufferPointer { $0 })
        }
    }

    /// Calls `body` with each handler in order.
    ///
    /// The list is a snapshot that holds every handler for the whole loop, so each handler
    /// is lent to `body` without being retained and released around the call. The snapshot
    /// is consumed, so that its array is not retained a second time for the loop.
    @inline(__always)
    consuming func forEach(_ body: (EventHandler) -> Void) {
        switch storage {
        case .empty: return
        case .one(let handler): body(handler)
        case .many(let handlers):
            handlers.withUnsafeBufferPointer { buffer in
                for index in buffer.indices {
                    Unmanaged.passUnretained(buffer[index])._withUnsafeGuaranteedRef(body)
                }
            }
        }
    }
}

/// The handlers of one list for one dispatch (``HandlerList/lent``).
enum LentHandlers {
    /// No handler.
    case none
    /// A lone handler, lent without a reference count.
    case one(Unmanaged<EventHandler>)
    /// Two or more handlers, lent where the list keeps them (``HandlerList/lent``).
    case many(UnsafeBufferPointer<EventHandler>)

    /// Calls `body` with each handler in order.
    @inline(__always)
    consuming func forEach(_ body: (EventHandler) -> Void) {
        switch consume self {
        case .none: return
        case .one(let handler): handler._withUnsafeGuaranteedRef(body)
        case .many(let handlers):
            for index in handlers.indices {
                Unmanaged.passUnretained(handlers[index])._withUnsafeGuaranteedRef(body)
            }
        }
    }
}
