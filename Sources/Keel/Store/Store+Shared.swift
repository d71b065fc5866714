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

    /// The shared store's backend, for models and collections without one.
    static var sharedSync: (any Sync)? { sharedBackend.withLock { $0 } }
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
