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
        options.resources = resources
        if policy == .networkOnly { options.custom[Self.readPolicyKey] = "remoteOnly" }
        let store = self.store
        let state = fetchState
        let stored = self.stored
        let collection = store.collection(M.self)
        // A backend that reports external changes answers from a local file that holds
        // every record, so a record its whole-class answer no longer has was deleted.
        let isComplete = remoteQuery.isEmpty && resources.filter == nil && store.reportsExternalChanges
        defer { store.collectGarbage() }
        // The version to compare with is read before the first load, so that no commit
        // between the load and the first check goes unseen.
        if store.externalVersion == nil { await store.checkForExternalChanges(force: true) }
        try await state.fetch { () async throws(SyncError) in
            _ = try await collection.fetch(options: options)
            // Read as `[Model]`: `Collection<M>`'s own `map` is generic code where `M` is not
            // known at compile time, which cost more than building the models' entries.
            let loaded = Collection<M>.upcast(collection.storage).map { $0.cidNumber }
            // Every held model of the class, not only those of the last load: a model created
            // here since may have been deleted by another process.
            if isComplete { stored.forgetDeletedRecords(stored.heldModels(notIn: loaded)) }
            state.loadedRecords = loaded
            state.lastResponse = collection.lastResponse
        }
    }

    /// Keeps the query's records loaded while the calling task runs: loads them, then loads
    /// them again each time they are invalidated (by a create, save or destroy of a model
    /// of the class, or ``Store/invalidate(_:)``) or go stale (``staleTime``), until the
    /// task is cancelled. A failed load is kept in ``error`` and retried at the next
    /// invalidation.
    ///
    /// When the store's backend reports external changes (``ExternalChangeReporting``, as
    /// `SQLiteSync` does), the query also asks it every ``Store/externalChangeInterval``
    /// whether another process committed to the file, and reads the records again only
    /// when one did: a record the other process added, changed or deleted reaches the
    /// query. No check runs while no query is kept loaded.
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
        await store.checkForExternalChanges(force: true)
        var staleAt: ContinuousClock.Instant?
        var needsLoad = true
        while !Task.isCancelled {
            let version = state.wakeUps.version
            let invalidations = state.invalidationCount
            if needsLoad {
                try? await load()
                staleAt = policy == .cacheOnly ? nil : staleTime.map { .now + $0 }
            }
            let timer = wakeUpTimer(at: staleAt, signalling: state.wakeUps)
            let isAwake = await state.wakeUps.wait(after: version)
            timer?.cancel()
            if !isAwake { return }
            await store.checkForExternalChanges()
            store.collectGarbage()
            needsLoad = state.invalidationCount != invalidations || staleAt.map { .now >= $0 } ?? false
        }
    }

    /// Signals `wakeUps` at `staleAt` or, when the store's backend reports external
    /// changes, once ``Store/externalChangeInterval`` has passed, whichever comes first.
    ///
    /// - Returns: The timer, or `nil` when there is nothing to wake up for.
    private func wakeUpTimer(at staleAt: ContinuousClock.Instant?, signalling wakeUps: SnapshotSignal)
        -> Task<Void, Never>?
    {
        let check = store.reportsExternalChanges ? ContinuousClock.now + store.externalChangeInterval : nil
        guard let deadline = [staleAt, check].compactMap(\.self).min() else { return nil }
        return Task {
            try? await Task.sleep(until: deadline, clock: .continuous)
            if !Task.isCancelled { wakeUps.signal() }
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

    /// The answer of the last request that succeeded, with its status and headers (a
    /// total count, a link to the next page); `nil` before the first.
    ///
    /// ```swift
    /// let total = open.lastResponse?.headers["x-total-count"]
    /// ```
    public var lastResponse: SyncResponse? { fetchState.readLastResponse() }

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
