import Foundation
import Keel

extension CachingSync {
    /// How the atomic part of a replay ended.
    enum AtomicOutcome {
        /// No change could go in an atomic request.
        case nothing
        /// The server applied the batch; these queue positions are done.
        case sent([Int])
        /// The server refused the batch; these queue positions stay queued (those an error
        /// names as failed or in conflict), and their records wait for the next replay.
        case refused([Int])
        /// The remote cannot be reached now; nothing changed.
        case stopped(SyncError)
        /// The server does not offer the extension; every change goes one by one.
        case unavailable(SyncError)
    }

    /// Sends the queued JSON:API changes that can go together (``AtomicReplayBatch``) as one
    /// Atomic Operations request, and applies the results as one request per change would.
    func replayAtomically(
        _ queue: inout ReplayQueue,
        endpoint: URL,
        into report: inout ReplayReport,
        touched: inout [RecordKey: RecordKey]
    ) async throws(SyncError) -> AtomicOutcome {
        let batch = AtomicReplayBatch(queue.changes, types: try await resourceTypes(of: queue.changes)) { change in
            change.method != .create && change.baseVersion != nil
                && configuration.versionCheck(for: change.collection) != .none
        }
        guard !batch.positions.isEmpty else { return .nothing }
        let changes = batch.positions.map { queue.changes[$0] }
        let request = SyncRequest(
            method: .create,
            url: endpoint,
            body: batch.document,
            headers: [
                "Accept": AtomicOperations.mediaType,
                "Content-Type": AtomicOperations.mediaType,
                Self.idempotencyKeyHeader: Self.batchKey(of: changes),
            ]
        )
        let response: SyncResponse
        do {
            response = try await remote.perform(request)
        } catch {
            return try await refuse(batch, changes, with: error, into: &report)
        }
        if let error = Self.unexpectedAnswer(response) { return .stopped(error) }
        let results = AtomicReplayResults(response, batch: batch)
        let sentBefore = report.sent.count
        for (index, position) in batch.positions.enumerated() {
            let change = queue.changes[position]
            let live = queue.liveKey(at: position)
            let key = RecordKey(collection: change.collection, id: change.recordID)
            touched[key] = touched[key] ?? live
            guard let answer = results.answer(at: index, for: change) else {
                let error = SyncError.atomicBatchCommitted(
                    unmapped: [change.recordID],
                    reason: results.problem ?? "the server's results name no record for this create"
                )
                try await local.mark(change, as: .failed(error))
                report.failures.append(ReplayReport.Failure(change: change, error: error))
                continue
            }
            if case .renamed(let serverID) = try await accept(change, answered: answer, into: &report) {
                touched[key] = nil
                touched[RecordKey(collection: change.collection, id: CachePath.key(serverID))] = live
                queue.replace(change.recordID, with: serverID, after: position)
            }
        }
        report.sentAtomically = report.sent.count - sentBefore
        return .sent(batch.positions)
    }

    /// The outcome of a batch the server did not apply: the errors that name an operation
    /// (`/atomic:operations/1/…`) are each recorded against its change, as a refusal of that
    /// change alone would be; when none does, the server's error is recorded against every
    /// change of the batch.
    private func refuse(
        _ batch: AtomicReplayBatch,
        _ changes: [QueuedChange],
        with error: SyncError,
        into report: inout ReplayReport
    ) async throws(SyncError) -> AtomicOutcome {
        if Self.isTemporary(error) { return .stopped(error) }
        let named = Self.errorsByOperation(error, count: changes.count)
        if named.isEmpty, let status = error.status, [404, 405, 406, 415].contains(status) {
            return .unavailable(error)
        }
        for (index, change) in changes.enumerated() where named.isEmpty || named[index] != nil {
            _ = try await reject(change, with: named[index] ?? error, into: &report)
        }
        return .refused(batch.positions)
    }

    /// The errors of a refused batch whose `source.pointer` names an operation, by its
    /// index, each with the pointer made relative to that operation (`/data/attributes/title`).
    static func errorsByOperation(_ error: SyncError, count: Int) -> [Int: SyncError] {
        guard case .httpStatus(let status, let body) = error, let list = body?["errors"]?.arrayValue else { return [:] }
        let prefix = "/atomic:operations/"
        var grouped: [Int: [JSONValue]] = [:]
        for item in list {
            guard var object = item.objectValue, let pointer = object["source"]?["pointer"]?.stringValue,
                pointer.hasPrefix(prefix)
            else { continue }
            let rest = pointer.dropFirst(prefix.count)
            guard let index = Int(rest.prefix { $0.isNumber }), (0..<count).contains(index) else { continue }
            object["source"] = ["pointer": .string(String(rest.drop { $0.isNumber }))]
            grouped[index, default: []].append(.object(object))
        }
        return grouped.mapValues { .httpStatus(status, body: ["errors": .array($0)]) }
    }

    /// The resource type of each record a queued delete removes: from an earlier change of
    /// the record in the queue, else from the local record.
    private func resourceTypes(of changes: [QueuedChange]) async throws(SyncError) -> [RecordKey: String] {
        var types: [RecordKey: String] = [:]
        for change in changes {
            let key = RecordKey(collection: change.collection, id: change.recordID)
            if let type = AtomicReplayBatch.resource(of: change)?["type"]?.stringValue {
                types[key] = types[key] ?? type
            } else if change.method == .delete, types[key] == nil,
                let type = try await local.record(change.recordID, in: change.collection)?["type"]?.stringValue
            {
                types[key] = type
            }
        }
        return types
    }

    /// The `Idempotency-Key` of an atomic request: the same for the same changes, so a
    /// server that honours the header recognises the batch sent again after an answer was lost.
    static func batchKey(of changes: [QueuedChange]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in changes.map(\.idempotencyKey).joined(separator: "\n").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return "atomic-\(changes.count)-\(String(repeating: "0", count: 16 - digits.count))\(digits)-"
            + (changes.first?.idempotencyKey ?? "")
    }
}
