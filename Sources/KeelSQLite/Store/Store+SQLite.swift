public import Foundation
public import Keel

extension Store {
    /// A store over a REST server with a local SQLite copy and a durable write queue: a
    /// `CachingSync` joining a `RESTSync` and a `SQLiteOfflineStore`.
    ///
    /// Replays that writes start (each write first sends what waits before it) reach the
    /// store's live models on the main actor, so a record created offline gets its server
    /// id in every query without the app applying anything; ``replay()`` and
    /// ``resolve(_:with:)`` apply their reports at once. The cache learns each class the
    /// store registers (`ModelRegistrationReceiving`), so JSON:API classes need no
    /// registration in `configuration` for their `included` resources to be stored and read
    /// offline.
    ///
    /// ```swift
    /// let store = try Store.offline(baseURL: api, fileURL: cacheURL)
    /// let todos = store.query(Todo.self)
    /// try await store.collection(Todo.self).fetch()   // from the server, stored locally
    /// ```
    ///
    /// - Parameters:
    ///   - baseURL: The server's base URL.
    ///   - fileURL: The SQLite file of the local copy and queue; created if missing.
    ///   - headers: Headers for every request.
    ///   - configuration: Read policies, version checks, conflict policies and foreign keys.
    /// - Returns: The store.
    /// - Throws: `SQLiteStoreError` when the file cannot be opened.
    @MainActor
    public static func offline(
        baseURL: URL,
        fileURL: URL,
        headers: [String: String] = [:],
        configuration: CachingSync.Configuration = CachingSync.Configuration()
    ) throws(SQLiteStoreError) -> Store {
        try offline(
            remote: RESTSync(baseURL: baseURL, headers: headers),
            fileURL: fileURL,
            configuration: configuration
        )
    }

    /// A store over any remote backend with a local SQLite copy and a durable write queue.
    ///
    /// ```swift
    /// let store = try Store.offline(remote: RetryingSync(RESTSync(baseURL: api)), fileURL: cacheURL)
    /// ```
    ///
    /// - Parameters:
    ///   - remote: The server's backend, with any decorators.
    ///   - fileURL: The SQLite file of the local copy and queue; created if missing.
    ///   - configuration: Read policies, version checks, conflict policies and foreign keys.
    /// - Returns: The store.
    /// - Throws: `SQLiteStoreError` when the file cannot be opened.
    @MainActor
    public static func offline(
        remote: any Sync,
        fileURL: URL,
        configuration: CachingSync.Configuration = CachingSync.Configuration()
    ) throws(SQLiteStoreError) -> Store {
        let applier = ReplayApplier()
        var configuration = configuration
        let onReplay = configuration.onReplay
        configuration.onReplay = { report in
            onReplay?(report)
            Task { @MainActor in applier.apply(report) }
        }
        let cache = CachingSync(
            remote: remote,
            local: try SQLiteOfflineStore(fileURL: fileURL),
            configuration: configuration
        )
        let store = Store(sync: cache)
        applier.store = store
        return store
    }

    /// A store over a local SQLite file only (`SQLiteSync`), for apps without a server.
    ///
    /// ```swift
    /// let store = try Store.sqlite(fileURL: documents.appendingPathComponent("todos.sqlite"))
    /// ```
    ///
    /// - Parameter fileURL: The SQLite file; created if missing.
    /// - Returns: The store.
    /// - Throws: `SQLiteStoreError` when the file cannot be opened.
    public static func sqlite(fileURL: URL) throws(SQLiteStoreError) -> Store {
        Store(sync: try SQLiteSync(fileURL: fileURL))
    }

    /// The store's backend as a `CachingSync`, when it is one.
    ///
    /// ```swift
    /// let pending = try await store.cachingSync?.queuedChanges().count
    /// ```
    public var cachingSync: CachingSync? { sync as? CachingSync }

    /// Sends the queued changes (`CachingSync/replay()`) and applies the report to the
    /// live models: server ids replace temporary ones, foreign keys and sync states follow,
    /// and live queries move the models.
    ///
    /// ```swift
    /// let report = try await store.replay()
    /// print("\(report.sent.count) sent")
    /// ```
    ///
    /// - Returns: The replay's report, already applied.
    /// - Throws: ``Keel/SyncError/missingBackend`` when the store's backend is not a
    ///   `CachingSync`; `SyncError.storage(_:)` when the local store fails.
    @discardableResult
    public func replay() async throws(SyncError) -> ReplayReport {
        guard let cache = cachingSync else { throw .missingBackend }
        let report = try await cache.replay()
        identityMap.apply(report)
        return report
    }

    /// Settles a conflict (`CachingSync/resolve(_:with:)`) and applies the report of the
    /// replay that follows to the live models.
    ///
    /// ```swift
    /// for conflict in try await store.cachingSync?.conflicts() ?? [] {
    ///     try await store.resolve(conflict, with: .useServer)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - conflict: A conflict from `CachingSync/conflicts()`.
    ///   - resolution: The decision.
    /// - Returns: The report, already applied.
    /// - Throws: ``Keel/SyncError/missingBackend`` when the store's backend is not a
    ///   `CachingSync`; `SyncError.storage(_:)`.
    @discardableResult
    public func resolve(_ conflict: SyncConflict, with resolution: ConflictResolution) async throws(SyncError)
        -> ReplayReport
    {
        guard let cache = cachingSync else { throw .missingBackend }
        let report = try await cache.resolve(conflict, with: resolution)
        identityMap.apply(report)
        return report
    }
}

/// Applies the reports of replays that writes start to a store's models, on the main actor
/// where the store of ``Store/offline(remote:fileURL:configuration:)`` lives.
@MainActor
private final class ReplayApplier {
    weak var store: Store?

    func apply(_ report: ReplayReport) {
        store?.identityMap.apply(report)
    }
}
