/// Registering handlers with `on` and `once`, and splitting a string of event names.
extension EventEmitter {
    /// Registers `callback` for one or more space-separated event names.
    ///
    /// ```swift
    /// note.on("change:title change:body") { event in print(event.name) }
    /// ```
    ///
    /// - Parameters:
    ///   - events: One name, or several separated by spaces; `"all"` receives every event.
    ///   - owner: An object that owns the handler (Backbone's context), held weakly: the
    ///     handler is dropped when the owner is deallocated, and ``off(_:owner:)-(String?,_)`` can remove
    ///     every handler of an owner.
    ///   - callback: The handler.
    /// - Returns: A token that removes the handler (every name's handler) when cancelled.
    @discardableResult
    public final func on(_ events: String, owner: AnyObject? = nil, _ callback: @escaping (Event) -> Void)
        -> Subscription
    {
        let id = Self.makeUniqueID()
        register(events, id: id, callback: callback, owner: owner, isOnce: false)
        return Subscription(id: id, emitter: self)
    }

    /// Registers several handlers at once from an event map.
    ///
    /// ```swift
    /// note.on(["change:title": { _ in print("title") }, "destroy": { _ in print("gone") }])
    /// ```
    ///
    /// - Parameters:
    ///   - map: Event names (each may list several names) and their handlers.
    ///   - owner: The owner of every handler, held weakly.
    /// - Returns: A token that removes all of them when cancelled.
    @discardableResult
    public final func on(_ map: KeyValuePairs<String, (Event) -> Void>, owner: AnyObject? = nil) -> Subscription {
        let id = Self.makeUniqueID()
        for (events, callback) in map { register(events, id: id, callback: callback, owner: owner, isOnce: false) }
        return Subscription(id: id, emitter: self)
    }

    /// Registers `callback` to run at most once for each of the given event names.
    ///
    /// The handler is removed before it runs, so triggering the same event from inside it
    /// does not run it again.
    ///
    /// ```swift
    /// note.once("sync") { _ in print("first sync") }
    /// ```
    ///
    /// - Parameters:
    ///   - events: One name, or several separated by spaces; each fires the handler once.
    ///   - owner: An owner held weakly, as for ``on(_:owner:_:)-(String,_,_)``.
    ///   - callback: The handler.
    /// - Returns: A token that removes the handler if it has not run yet.
    @discardableResult
    public final func once(_ events: String, owner: AnyObject? = nil, _ callback: @escaping (Event) -> Void)
        -> Subscription
    {
        let id = Self.makeUniqueID()
        register(events, id: id, callback: callback, owner: owner, isOnce: true)
        return Subscription(id: id, emitter: self)
    }

    /// Registers several handlers to run at most once each, from an event map.
    ///
    /// ```swift
    /// note.once(["sync": { _ in print("saved") }, "error": { _ in print("failed") }])
    /// ```
    ///
    /// - Parameters:
    ///   - map: Event names (each may list several names) and their handlers.
    ///   - owner: The owner of every handler, held weakly.
    /// - Returns: A token that removes the handlers that have not run yet.
    @discardableResult
    public final func once(_ map: KeyValuePairs<String, (Event) -> Void>, owner: AnyObject? = nil) -> Subscription {
        let id = Self.makeUniqueID()
        for (events, callback) in map { register(events, id: id, callback: callback, owner: owner, isOnce: true) }
        return Subscription(id: id, emitter: self)
    }

    /// Registers `callback` for each name in `events` under the token `id`.
    private func register(
        _ events: String,
        id: Int,
        callback: @escaping (Event) -> Void,
        owner: AnyObject?,
        isOnce: Bool
    ) {
        let state = self.state
        forEachName(in: events) { name in
            register(name: name, id: id, callback: callback, owner: owner, isOnce: isOnce, in: state)
        }
    }

    // MARK: - Event names

    func forEachName(in events: String, _ body: (String) -> Void) {
        if Self.isSingleName(events) {
            body(events)
        } else {
            for name in splitNames(events) { body(name) }
        }
    }

    /// Whether `events` is one name: it has no separator.
    static func isSingleName(_ events: String) -> Bool {
        // Scanned as contiguous bytes: stepping a small string's `UTF8View` costs tens of
        // instructions per byte, and every registration scans its names.
        let hasSeparator =
            events.utf8.withContiguousStorageIfAvailable { $0.contains(where: isSeparator) }
            ?? events.utf8.contains(where: isSeparator)
        return !hasSeparator
    }

    func splitNames(_ events: String) -> [String] {
        events.utf8.split(whereSeparator: Self.isSeparator).map { String(decoding: $0, as: UTF8.self) }
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
