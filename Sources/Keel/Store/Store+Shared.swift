extension Store {
    /// The backend of the shared store, read by models and collections that have no
    /// backend of their own (any isolation may read it; `Sync` is `Sendable`).
    private static let sharedBackend = Lock<(any Sync)?>(nil)

    @MainActor private static var sharedStore: Store?

    /// The process-wide store, once ``makeShared()`` has been called: a convenience for
    /// apps with one store, never the only way in.
    ///
    /// Models and collections that name no backend (neither their own, nor their
    /// collection's, nor their class's `sync`) then use its backend, as RestKit's shared
    /// object manager served every mapped class.
    ///
    /// ```swift
    /// try Store.rest(baseURL: api).makeShared()
    /// let todos = Store.shared?.query(Todo.self)
    /// ```
    @MainActor public static var shared: Store? { sharedStore }

    /// Makes this store the process-wide ``shared`` store. It can be set once.
    ///
    /// ```swift
    /// try Store.inMemory().makeShared()
    /// let note = Note(["title": "Milk"])
    /// try await note.save()   // through the shared store's backend
    /// ```
    ///
    /// - Throws: ``StoreError/sharedStoreAlreadySet`` when a shared store exists.
    @MainActor public func makeShared() throws(StoreError) {
        guard Self.sharedStore == nil else { throw .sharedStoreAlreadySet }
        Self.sharedStore = self
        Self.sharedBackend.withLock { $0 = sync }
    }

    /// The backend of the store in whose ``asShared(isolation:_:)`` scope the current task
    /// runs.
    @TaskLocal private static var scopedBackend: (any Sync)?

    /// Runs `operation` with this store serving models and collections that name no
    /// backend, as the ``shared`` store does, but only for the current task and the tasks
    /// it creates: for tests and previews, where each needs its own store and the
    /// process-wide one can be set only once. A scope inside another wins while it runs;
    /// ``shared`` itself does not change.
    ///
    /// ```swift
    /// let store = Store.inMemory()
    /// try await store.asShared {
    ///     try await Note(["title": "Milk"]).save()   // through this store's backend
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - isolation: Where `operation` runs: the caller's isolation.
    ///   - operation: The work.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    @discardableResult
    public func asShared<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws -> Result
    ) async rethrows -> Result {
        try await Self.$scopedBackend.withValue(sync, operation: operation, isolation: isolation)
    }

    /// The shared store's backend, for models and collections without one: the scoped
    /// store's (``asShared(isolation:_:)``), else the process-wide one's.
    static var sharedSync: (any Sync)? { scopedBackend ?? sharedBackend.withLock { $0 } }
}

/// Why a ``Store`` refused a request.
///
/// ```swift
/// do {
///     try store.makeShared()
/// } catch .sharedStoreAlreadySet {
///     print("keep using Store.shared")
/// }
/// ```
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// ``Store/makeShared()`` was called when a shared store was already set.
    case sharedStoreAlreadySet

    /// A sentence describing the problem.
    ///
    /// ```swift
    /// print(StoreError.sharedStoreAlreadySet)
    /// ```
    public var description: String {
        switch self {
        case .sharedStoreAlreadySet:
            return "A shared store is already set; it can be set once per process"
        }
    }
}
