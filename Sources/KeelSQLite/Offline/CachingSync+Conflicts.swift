import Foundation
public import Keel

extension CachingSync {
    /// The outcome of a version check before sending a change.
    enum VersionOutcome {
        /// Send this request (the change, or the merge a resolver chose).
        case send(SyncRequest)
        /// Nothing to send; continue with this step.
        case done(Step)
    }

    /// Reads the server's record and, when its version is not the one the change was based
    /// on, lets the conflict policy decide.
    func checkVersion(
        of change: QueuedChange,
        base: String,
        check: VersionCheck,
        into report: inout ReplayReport
    ) async throws(SyncError) -> VersionOutcome {
        var request = change.request
        request.headers[Self.idempotencyKeyHeader] = change.idempotencyKey
        let current: SyncResponse?
        var read = SyncRequest(method: .read, url: change.url)
        read.rootKey = change.rootKey
        do {
            let answer = try await remote.perform(read)
            if let error = Self.unexpectedAnswer(answer) { return .done(.stop(error)) }
            current = answer
        } catch {
            if Self.isTemporary(error) { return .done(.stop(error)) }
            guard error.status == 404 else { return .send(request) }
            current = nil
        }
        let server = Self.record(in: current?.body, rootKey: change.rootKey)
        if change.method == .delete && current == nil {
            _ = try await local.complete(change, serverRecord: nil, foreignKeys: foreignKeys)
            report.sent.append(ReplayReport.Sent(change: change, response: SyncResponse(status: 204)))
            return .done(.next)
        }
        let version = Self.version(of: server, headers: current?.headers ?? [:], check: check)
        if current != nil && version == base { return .send(request) }
        let conflict = SyncConflict(
            change: change,
            local: change.method == .delete ? nil : try await local.record(change.recordID, in: change.collection),
            server: server
        )
        let policy = configuration.conflictPolicy(for: change.collection)
        switch await policy.decide(conflict) {
        case .useServer:
            try await local.discard(change, serverRecord: server.map { RemoteRecord(attributes: $0, version: version) })
            report.resolved.append(conflict)
            return .done(.next)
        case .useClient:
            if check == .etag, let version { request.headers["If-Match"] = version }
            if change.method != .delete, current == nil { request.method = .update }
            report.resolved.append(conflict)
            return .send(request)
        case .merged(let attributes):
            request.method = .update
            request.body = QueuedChange.wrap(.object(attributes), in: change.rootKey)
            if check == .etag, let version { request.headers["If-Match"] = version }
            report.resolved.append(conflict)
            return .send(request)
        case .keep:
            try await local.mark(change, as: .conflict(server: server))
            report.conflicts.append(conflict)
            return .done(.blocked)
        }
    }

    /// The conflicts waiting for a person, oldest first.
    ///
    /// ```swift
    /// for conflict in try await cache.conflicts() {
    ///     try await cache.resolve(conflict, with: .useServer)
    /// }
    /// ```
    ///
    /// - Returns: One per queued change in conflict, with the local and server records.
    /// - Throws: `SyncError.storage(_:)`.
    public func conflicts() async throws(SyncError) -> [SyncConflict] {
        var conflicts: [SyncConflict] = []
        for change in try await local.queuedChanges() {
            guard case .conflict(let server) = change.state else { continue }
            let record = change.method == .delete ? nil : try await local.record(change.recordID, in: change.collection)
            conflicts.append(SyncConflict(change: change, local: record, server: server))
        }
        return conflicts
    }

    /// Settles a conflict (or a failed change) and replays the queue.
    ///
    /// `useServer` drops the local change and takes the server's record; `useClient` sends
    /// the local change over the server's; `merged` stores and sends the given record;
    /// `keep` changes nothing.
    ///
    /// The report covers the settled record too, sent or not: hand it to
    /// `IdentityMap/apply(_:)` so that live models leave `conflict` and show the record
    /// as it is now stored.
    ///
    /// ```swift
    /// let conflict = try await cache.conflicts()[0]
    /// map.apply(try await cache.resolve(conflict, with: .merged(["title": "Both"])))
    /// ```
    ///
    /// - Parameters:
    ///   - conflict: A conflict from ``conflicts()``.
    ///   - resolution: The decision.
    /// - Returns: The report of the replay that follows.
    /// - Throws: `SyncError.storage(_:)`.
    @discardableResult
    public func resolve(_ conflict: SyncConflict, with resolution: ConflictResolution) async throws(SyncError)
        -> ReplayReport
    {
        let change = conflict.change
        let check = configuration.versionCheck(for: change.collection)
        let version = Self.version(of: conflict.server, headers: [:], check: check == .etag ? .none : check)
        switch resolution {
        case .keep:
            return ReplayReport()
        case .useServer:
            try await local.discard(
                change,
                serverRecord: conflict.server.map { RemoteRecord(attributes: $0, version: version) }
            )
        case .useClient:
            try await local.retry(change, basedOn: nil)
        case .merged(let attributes):
            try await local.discard(
                change,
                serverRecord: conflict.server.map { RemoteRecord(attributes: $0, version: version) }
            )
            var request = SyncRequest(
                method: .update,
                url: change.url,
                body: .object(attributes),
                headers: change.headers
            )
            request.headers[Self.idempotencyKeyHeader] = nil
            _ = try await local.write(request, idempotencyKey: UUID().uuidString, versionCheck: .none)
        }
        var report = try await replay()
        try await reportRecord(of: change, in: &report)
        return report
    }

    /// Adds the record of a settled change to a report that does not cover it yet (a change
    /// dropped for the server's record is not sent, so the replay does not touch it), so that
    /// `IdentityMap/apply(_:)` takes its live models out of `conflict` or `failed`.
    private func reportRecord(of change: QueuedChange, in report: inout ReplayReport) async throws(SyncError) {
        guard !report.records.contains(where: { $0.collection == change.collection && $0.id == change.recordID })
        else { return }
        let state =
            try await local.queuedChanges().filter {
                $0.collection == change.collection && $0.recordID == change.recordID
            }
            .recordState ?? .synced
        report.records.append(
            ReplayReport.RecordUpdate(
                collection: change.collection,
                id: change.recordID,
                attributes: try await local.record(change.recordID, in: change.collection),
                state: state
            )
        )
    }

    /// Sends a failed change again on the next replay, or drops it.
    ///
    /// ```swift
    /// for change in try await cache.queuedChanges() where change.state != .pending {
    ///     try await cache.discard(change)
    /// }
    /// ```
    ///
    /// - Parameter change: A queued change.
    /// - Throws: `SyncError.storage(_:)`.
    public func discard(_ change: QueuedChange) async throws(SyncError) {
        var server: RemoteRecord?
        if change.method != .create, let record = await serverRecord(of: change) {
            server = RemoteRecord(attributes: record, version: nil)
        } else if change.method != .create {
            server = try await local.record(change.recordID, in: change.collection).map {
                RemoteRecord(attributes: $0, version: nil)
            }
        }
        try await local.discard(change, serverRecord: server)
    }

    /// Makes a failed or conflicting change pending again, sent as it is on the next
    /// replay.
    ///
    /// ```swift
    /// try await cache.retry(change)
    /// ```
    ///
    /// - Parameter change: A queued change.
    /// - Throws: `SyncError.storage(_:)`.
    public func retry(_ change: QueuedChange) async throws(SyncError) {
        try await local.retry(change, basedOn: nil)
    }
}
