extension Store {
    /// Releases the records of queries that no live query has used for their `gcTime`:
    /// TanStack Query's garbage collection.
    ///
    /// The records a query's loads brought stay in the store while any ``LiveQuery`` that
    /// loads them (same class and ``LiveQuery/remoteQuery``) is alive. Once the last one is
    /// released and its ``LiveQuery/gcTime`` has passed, the store forgets that the records
    /// were loaded (the next query of them is stale and loads again) and stops holding the
    /// models that only those loads brought, unless a live query shows them, they have
    /// unsaved changes, or they are new. A model the app still references stays usable, and
    /// the next load or find that brings its record makes the store hold it again.
    ///
    /// The store collects by itself whenever a query is created, a load finishes or a query
    /// kept loaded wakes up; call this to release earlier, for example on a memory warning.
    ///
    /// ```swift
    /// store.collectGarbage()
    /// ```
    ///
    /// - Complexity: O(*q* + *r*) for *q* loaded queries and *r* released records.
    public func collectGarbage() {
        let now = clock.now
        var released: [String: Set<Int>] = [:]
        for (key, state) in fetchStates where state.isCollectable(at: now) {
            fetchStates[key] = nil
            released[key.path, default: []].formUnion(state.loadedRecords)
        }
        guard !released.isEmpty else { return }
        for (key, state) in fetchStates { released[key.path]?.subtract(state.loadedRecords) }
        for (path, numbers) in released { classes[path]?.releaseUnused(numbers) }
    }
}
