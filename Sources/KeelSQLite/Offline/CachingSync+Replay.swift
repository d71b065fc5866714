public import Keel

extension CachingSync {
    /// Sends the queued changes in order, as far as the remote can be reached.
    ///
    /// With ``Configuration/atomicOperations`` set, the JSON:API changes that can go together
    /// go first, as one Atomic Operations request (see ``Configuration/atomicOperations``);
    /// the others follow one request each.
    ///
    /// Each change goes with its `Idempotency-Key`. A temporary id whose create was sent is
    /// replaced everywhere before the next change goes. A change the server rejects (a 4xx)
    /// stays queued as failed, and later changes of the same record wait behind it; a
    /// conflict is settled by the ``ConflictPolicy`` or kept for a person. Sending stops at
    /// the first change the remote cannot take now (no connection, a timeout, a 5xx, 429);
    /// the rest stays queued for the next replay. One replay runs at a time.
    ///
    /// ```swift
    /// let report = try await cache.replay()
    /// map.apply(report)                     // live models get server ids and states
    /// if let error = report.stoppedBy { print("still offline: \(error)") }
    /// ```
    ///
    /// - Returns: What was sent, rejected and left.
    /// - Throws: `SyncError.storage(_:)` when the local store fails (what was sent before
    ///   stays recorded).
    /// - Complexity: O(*n*) requests for *n* queued changes (two for a change checked for
    ///   conflicts).
    @discardableResult
    public func replay() async throws(SyncError) -> ReplayReport {
        await gate.enter()
        do {
            let report = try await replayNow()
            await gate.leave()
            if !(report.sent.isEmpty && report.failures.isEmpty && report.conflicts.isEmpty && report.resolved.isEmpty)
            {
                configuration.onReplay?(report)
            }
            return report
        } catch {
            await gate.leave()
            throw error
        }
    }

    /// The queued changes, oldest first.
    ///
    /// ```swift
    /// let pending = try await cache.queuedChanges().filter { $0.state == .pending }
    /// ```
    ///
    /// - Returns: Every queued change.
    /// - Throws: `SyncError.storage(_:)`.
    public func queuedChanges() async throws(SyncError) -> [QueuedChange] {
        try await local.queuedChanges()
    }

    private func replayNow() async throws(SyncError) -> ReplayReport {
        var report = ReplayReport()
        var queue = ReplayQueue(try await local.queuedChanges())
        var blocked: Set<RecordKey> = []
        // Each record the replay touched, by its key now, with the key live models have.
        var touched: [RecordKey: RecordKey] = [:]
        var index = 0
        var batched: Set<Int> = []
        if let endpoint = configuration.atomicOperations?.endpoint {
            switch try await replayAtomically(&queue, endpoint: endpoint, into: &report, touched: &touched) {
            case .nothing:
                break
            case .sent(let positions):
                batched = Set(positions)
            case .refused(let positions):
                batched = Set(positions)
                for position in positions {
                    blocked.insert(
                        RecordKey(collection: queue.changes[position].collection, id: queue.changes[position].recordID)
                    )
                }
            case .stopped(let error):
                report.stoppedBy = error
                index = queue.changes.count
            case .unavailable(let error):
                report.atomicFallback = error
            }
        }
        sending: while index < queue.changes.count {
            let change = queue.changes[index]
            let live = queue.liveKey(at: index)
            let waits = queue.waitsForACreate(at: index)
            index += 1
            if batched.contains(index - 1) { continue }
            let key = RecordKey(collection: change.collection, id: change.recordID)
            guard case .pending = change.state, !blocked.contains(key), !waits else {
                blocked.insert(key)
                continue
            }
            touched[key] = touched[key] ?? live
            switch try await send(change, into: &report) {
            case .next:
                break
            case .blocked:
                blocked.insert(key)
            case .stop(let error):
                report.stoppedBy = error
                break sending
            case .renamed(let serverID):
                touched[key] = nil
                touched[RecordKey(collection: change.collection, id: CachePath.key(serverID))] = live
                queue.replace(change.recordID, with: serverID, after: index - 1)
            }
        }
        let left = Dictionary(grouping: try await local.queuedChanges()) {
            RecordKey(collection: $0.collection, id: $0.recordID)
        }
        report.remaining = left.values.reduce(0) { $0 + $1.count }
        report.records = Self.latestUpdates(report.records, in: queue, superseded: Set(touched.values))
        for (key, live) in touched {
            let state = left[key]?.recordState ?? .synced
            let attributes = state == .synced ? try await local.record(key.id, in: key.collection) : nil
            report.records.append(
                ReplayReport.RecordUpdate(
                    collection: live.collection,
                    id: live.id,
                    attributes: attributes,
                    state: state
                )
            )
        }
        return report
    }

    /// The updates of records whose attributes a sent create rewrote, under the keys live
    /// models have, one per record (its last), leaving out the records the replay reports
    /// at the end (`superseded`) since that report is newer.
    private static func latestUpdates(
        _ updates: [ReplayReport.RecordUpdate],
        in queue: ReplayQueue,
        superseded: Set<RecordKey>
    ) -> [ReplayReport.RecordUpdate] {
        var latest: [RecordKey: ReplayReport.RecordUpdate] = [:]
        var order: [RecordKey] = []
        for update in updates {
            let live = queue.liveKey(of: RecordKey(collection: update.collection, id: update.id))
            guard !superseded.contains(live) else { continue }
            if latest[live] == nil { order.append(live) }
            latest[live] = ReplayReport.RecordUpdate(
                collection: live.collection,
                id: live.id,
                attributes: update.attributes,
                state: update.state
            )
        }
        return order.compactMap { latest[$0] }
    }

    /// What to do after one change.
    enum Step {
        case next
        case blocked
        case stop(SyncError)
        /// A create got the server's id.
        case renamed(JSONValue)
    }

    private func send(_ change: QueuedChange, into report: inout ReplayReport) async throws(SyncError) -> Step {
        var request = change.request
        request.headers[Self.idempotencyKeyHeader] = change.idempotencyKey
        let check = configuration.versionCheck(for: change.collection)
        if change.method != .create, check != .none, let base = change.baseVersion {
            switch try await checkVersion(of: change, base: base, check: check, into: &report) {
            case .send(let checked): request = checked
            case .done(let step): return step
            }
            if check == .etag, request.headers["If-Match"] == nil { request.headers["If-Match"] = base }
        }
        return try await deliver(request, for: change, into: &report)
    }

    /// Sends a change and records the answer.
    func deliver(_ request: SyncRequest, for change: QueuedChange, into report: inout ReplayReport)
        async throws(SyncError) -> Step
    {
        let response: SyncResponse
        do {
            response = try await remote.perform(request)
        } catch {
            return try await reject(change, with: error, into: &report)
        }
        if let error = Self.unexpectedAnswer(response) { return .stop(error) }
        return try await accept(change, answered: response, into: &report)
    }

    /// Records the server's refusal of a change: a temporary failure stops the replay, a
    /// deleted record's 404 completes its delete, a 409 or 412 is a conflict, and any other
    /// error leaves the change queued as failed.
    func reject(_ change: QueuedChange, with error: SyncError, into report: inout ReplayReport)
        async throws(SyncError) -> Step
    {
        if Self.isTemporary(error) { return .stop(error) }
        if change.method == .delete, error.status == 404 {
            _ = try await local.complete(change, serverRecord: nil, foreignKeys: foreignKeys)
            report.sent.append(ReplayReport.Sent(change: change, response: SyncResponse(status: 204)))
            return .next
        }
        if error.status == 409 || error.status == 412 {
            let server = await serverRecord(of: change)
            try await local.mark(change, as: .conflict(server: server))
            let conflict = SyncConflict(
                change: change,
                local: try await local.record(change.recordID, in: change.collection),
                server: server
            )
            report.conflicts.append(conflict)
            return .blocked
        }
        try await local.mark(change, as: .failed(error))
        report.failures.append(ReplayReport.Failure(change: change, error: error))
        return .blocked
    }

    /// Completes a change the server accepted with `response`: stores the server's record,
    /// replaces a created record's temporary id everywhere, and reports the records that
    /// changed.
    func accept(_ change: QueuedChange, answered response: SyncResponse, into report: inout ReplayReport)
        async throws(SyncError) -> Step
    {
        let record = Self.record(in: response.body, rootKey: change.rootKey)
        let check = configuration.versionCheck(for: change.collection)
        let server = record.map {
            RemoteRecord(attributes: $0, version: Self.version(of: $0, headers: response.headers, check: check))
        }
        let rewritten = try await local.complete(change, serverRecord: server, foreignKeys: foreignKeys)
        report.sent.append(ReplayReport.Sent(change: change, response: response))
        for record in rewritten {
            report.records.append(
                ReplayReport.RecordUpdate(
                    collection: record.collection,
                    id: record.id,
                    attributes: record.attributes,
                    state: .pending
                )
            )
        }
        if change.method == .create, let id = record?[local.idAttribute], !id.isNull,
            CachePath.key(id) != change.recordID
        {
            return .renamed(id)
        }
        return .next
    }
}

/// A record in the local store.
struct RecordKey: Hashable {
    let collection: String
    let id: String
}
