public import Foundation

extension LiveQuery {
    /// Loads the query's records from the backend as its ``policy`` (or `policy`) says; the
    /// records the answer brings are merged into the store, and the query follows.
    ///
    /// Queries that load the same records (same class and ``remoteQuery``) share one
    /// request: a second `load` while one is in flight waits for it. The outcome is kept in
    /// ``isFetching``, ``lastUpdated`` and ``error``; after a failure the query keeps
    /// showing the models it had (the last good data), beside the error.
    ///
    /// ```swift
    /// let open = store.query(Todo.self, filter: .equals(Todo.done, false))
    /// try await open.load()                        // by the query's policy
    /// try await open.load(policy: .networkOnly)    // pull to refresh
    /// ```
    ///
    /// - Parameter policy: The policy for this call; the query's ``policy`` when `nil`.
    /// - Throws: `SyncError` when the request fails.
    public func load(policy: CachePolicy? = nil) async throws(SyncError) {
        let policy = policy ?? self.policy
        switch policy {
        case .cacheOnly:
            return
        case .cacheFirst:
            if !isStale { return }
        case .cacheAndNetwork, .networkOnly:
            break
        }
        var options = SyncOptions(query: remoteQuery, remove: false)
        if policy == .networkOnly { options.custom[Self.readPolicyKey] = "remoteOnly" }
        let store = self.store
        try await fetchState.fetch { () async throws(SyncError) in
            _ = try await store.collection(M.self).fetch(options: options)
        }
    }

    /// Keeps the query's records loaded while the calling task runs: loads them, then loads
    /// them again each time they are invalidated (by a create, save or destroy of a model
    /// of the class, or ``Store/invalidate(_:)``) or go stale (``staleTime``), until the
    /// task is cancelled. A failed load is kept in ``error`` and retried at the next
    /// invalidation.
    ///
    /// This is what makes a query "observed": run it for as long as a screen shows the
    /// query, as SwiftUI's `.task { await open.keepLoaded() }` does.
    ///
    /// ```swift
    /// let task = Task { @MainActor in await open.keepLoaded() }
    /// // … when the screen goes away:
    /// task.cancel()
    /// ```
    public func keepLoaded() async {
        let state = fetchState
        while !Task.isCancelled {
            let version = state.wakeUps.version
            try? await load()
            var timer: Task<Void, Never>?
            if let staleTime, policy != .cacheOnly {
                let wakeUps = state.wakeUps
                timer = Task {
                    try? await Task.sleep(for: staleTime)
                    if !Task.isCancelled { wakeUps.signal() }
                }
            }
            let isAwake = await state.wakeUps.wait(after: version)
            timer?.cancel()
            if !isAwake { return }
        }
    }

    /// Whether a request for the query's records is in flight.
    ///
    /// ```swift
    /// if open.isFetching { showSpinner() }
    /// ```
    public var isFetching: Bool { fetchState.readIsFetching() }

    /// When a request for the query's records last succeeded; `nil` before the first.
    ///
    /// ```swift
    /// let age = open.lastUpdated.map { Date().timeIntervalSince($0) }
    /// ```
    public var lastUpdated: Date? { fetchState.readLastUpdated() }

    /// The error of the last request, until one succeeds; the results keep the last good
    /// data beside it.
    ///
    /// ```swift
    /// if let error = open.error { banner(error.localizedDescription) }
    /// ```
    public var error: SyncError? { fetchState.readError() }

    /// Whether the query's records need loading: never loaded, invalidated since, or older
    /// than ``staleTime``.
    ///
    /// ```swift
    /// store.invalidate(Todo.self)
    /// open.isStale  // true
    /// ```
    public var isStale: Bool {
        guard let lastUpdated = fetchState.readLastUpdated() else { return true }
        if fetchState.readIsInvalidated() { return true }
        guard let staleTime else { return false }
        let age = Date().timeIntervalSince(lastUpdated)
        let limit = Double(staleTime.components.seconds) + Double(staleTime.components.attoseconds) / 1e18
        return age >= limit
    }

    /// The key under which the request's context carries a caching backend's read policy
    /// (`SyncOptions.readPolicy` in `KeelSQLite`).
    static var readPolicyKey: String { "keel.readPolicy" }
}
