extension Store {
    /// The state of the requests for one class path and query, created on first use.
    func fetchState(
        path: String,
        query: KeyValuePairs<String, String>,
        resources: ResourceSelection,
        tags: Set<String>
    ) -> FetchState {
        let key = FetchKey(path: path, query: query.map { "\($0.key)=\($0.value)" }, resources: resources)
        let state = fetchStates[key] ?? FetchState(clock: clock)
        fetchStates[key] = state
        state.tags.formUnion(tags)
        return state
    }

    /// Marks the loaded records of a class stale: every query over it loads again at its
    /// next ``LiveQuery/load(policy:)``, and the queries kept loaded
    /// (``LiveQuery/keepLoaded()``) load again now.
    ///
    /// A create, save or destroy of a model the store holds does this for its class by
    /// itself once the server agrees.
    ///
    /// ```swift
    /// store.invalidate(Todo.self)
    /// ```
    ///
    /// - Parameter type: The model class.
    public func invalidate<M: Model>(_ type: M.Type) {
        invalidate(path: storedClass(for: type).path)
    }

    /// Marks stale the loaded records of every query given this tag.
    ///
    /// ```swift
    /// let inbox = store.query(Todo.self, tags: ["inbox"])
    /// store.invalidate(tag: "inbox")
    /// ```
    ///
    /// - Parameter tag: A tag given to ``query(_:filter:sort:sectionedBy:offset:limit:remoteQuery:resources:policy:staleTime:gcTime:tags:)``.
    public func invalidate(tag: String) {
        for state in fetchStates.values where state.tags.contains(tag) { state.invalidate() }
    }

    /// Marks stale the loaded records of every class whose path starts with `prefix`, such
    /// as `/lists/1` for `/lists/1/todos`.
    ///
    /// ```swift
    /// store.invalidate(pathPrefix: "/lists/1")
    /// ```
    ///
    /// - Parameter prefix: The start of a collection path.
    public func invalidate(pathPrefix prefix: String) {
        for (key, state) in fetchStates where key.path.hasPrefix(prefix) { state.invalidate() }
    }

    /// Marks stale the loaded records of one collection path.
    func invalidate(path: String) {
        for (key, state) in fetchStates where key.path == path { state.invalidate() }
    }
}

/// What identifies the records a request loads: the collection path and the query.
struct FetchKey: Hashable {
    let path: String
    let query: [String]
    let resources: ResourceSelection
}
