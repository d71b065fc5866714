import Foundation
import Keel
import KeelSQLite

/// `todos sync`, `status`, `retry` and `discard`: the queue of changes waiting for the
/// server, numbered as `status` lists it.
extension App {
    /// Runs a queue command; with a local store, `sync` and `status` say there is no queue.
    func performQueueCommand(_ command: Command, on todos: TodoList, backend: Backend) async throws(TodosError) {
        guard let cache = todos.sync as? CachingSync, case .server(let url) = backend else {
            terminal.write("Nothing to sync: the todos live in a local store, not on a server (see --server).\n")
            return
        }
        let queue = ServerQueue(cache: cache, server: url, app: self)
        switch command {
        case .status:
            let changes = try await queue.changes()
            let localCopy = (cache.local as? SQLiteOfflineStore)?.fileURL?.path ?? "in memory"
            terminal.write(QueueReport.status(changes, server: url.absoluteString, localCopy: localCopy))
        case .sync:
            try await send(queue, todos: todos)
        case .retry(let reference):
            try await retry(reference, in: queue, todos: todos)
        case .discard(let reference):
            try await discard(reference, in: queue, todos: todos)
        default:
            break
        }
    }

    // MARK: - Sync

    /// Sends the queue and says what was sent, what failed and why, and what still waits;
    /// fails (exit status 1) when anything still waits.
    private func send(_ queue: ServerQueue, todos: TodoList) async throws(TodosError) {
        let server = queue.server.absoluteString
        let report = try await queue.replay()
        let left = try await queue.changes()
        if !report.sent.isEmpty {
            terminal.write("Sent \(QueueReport.count(report.sent.count, "change")) to \(server).\n")
        } else if left.isEmpty && !isOffline {
            terminal.write("Nothing to send to \(server): every change has been sent.\n")
        }
        if !report.sent.isEmpty {
            try await syncing(with: .server(queue.server)) { () async throws(SyncError) in
                try await todos.fetch(reset: true)
            }
        }
        let stop = report.stoppedBy ?? (isOffline ? queue.lastFailure : nil)
        guard !left.isEmpty || stop != nil else { return }
        let blocked = left.first { QueueReport.problem(of: $0, in: left) == nil }
        let position = blocked.flatMap { change in left.firstIndex(of: change) }.map { $0 + 1 }
        var stoppedAt: (sequence: Int, reason: String)?
        if let stop, let blocked {
            let reason =
                ServerAnswer.kind(of: stop) == .unreachable
                ? "not sent: the server cannot be reached"
                : "the server answered with an error: \(ServerAnswer.summary(of: stop))"
            stoppedAt = (blocked.sequence, reason)
        }
        if !left.isEmpty {
            terminal.write("\(QueueReport.stillWaiting(left.count)) for \(server):\n")
            terminal.write(QueueReport.lines(left, stoppedAt: stoppedAt))
        }
        throw Self.syncFailure(left, stop: stop, position: position, server: queue.server)
    }

    /// The error `sync` ends with when changes still wait or the server could not be used.
    private static func syncFailure(
        _ left: [QueuedChange],
        stop: SyncError?,
        position: Int?,
        server: URL
    ) -> TodosError {
        let waiting = left.isEmpty ? "nothing was sent" : QueueReport.stillWaiting(left.count)
        if let stop, ServerAnswer.kind(of: stop) == .unreachable {
            return .backend(
                "\(unavailable(server, stop)); \(waiting)",
                hint: "Run 'todos sync' when it can be reached."
            )
        }
        if let stop {
            let drop = position.map { ", or 'todos discard \($0)' to drop the change it refuses" } ?? ""
            return .backend(
                "\(unavailable(server, stop)); \(waiting)",
                hint: "Run 'todos sync' to try again later\(drop)."
            )
        }
        let stuck = left.filter(\.isStuck).count
        guard stuck > 0 else {
            return .backend("\(waiting) for \(server.absoluteString)", hint: "Run 'todos sync' again.")
        }
        return .backend(
            "\(waiting) for \(server.absoluteString): "
                + "\(QueueReport.count(stuck, "change")) rejected by the server or in conflict"
                + (stuck < left.count ? ", the others wait behind them" : ""),
            hint: QueueReport.nextSteps.trimmingCharacters(in: .newlines)
        )
    }

    // MARK: - Retry and discard

    /// Makes the chosen rejected or conflicting changes pending again, then syncs.
    private func retry(_ reference: ItemReference?, in queue: ServerQueue, todos: TodoList) async throws(TodosError) {
        let changes = try await queue.changes()
        let chosen = try reference.map { (reference) throws(TodosError) in try queue.select(reference, in: changes) }
        for change in chosen ?? changes.filter(\.isStuck) {
            let position = (changes.firstIndex(of: change) ?? 0) + 1
            guard change.isStuck else {
                terminal.write("Change \(position) (\(QueueReport.summary(of: change))) was not rejected; it waits.\n")
                continue
            }
            try await queue.retry(change)
            terminal.write("Sending change \(position) again: \(QueueReport.summary(of: change)).\n")
        }
        try await send(queue, todos: todos)
    }

    /// Drops the chosen changes unsent (an add takes the later changes of its todo with
    /// it), shows the local copy as it is now, and sends what can be sent.
    private func discard(_ reference: ItemReference, in queue: ServerQueue, todos: TodoList) async throws(TodosError) {
        let before = try await queue.changes()
        for change in try queue.select(reference, in: before) {
            guard try await queue.changes().contains(where: { $0.sequence == change.sequence }) else { continue }
            try await queue.discard(change)
        }
        let after = try await queue.changes()
        let dropped = before.enumerated().filter { _, change in !after.contains { $0.sequence == change.sequence } }
        terminal.write("Discarded \(QueueReport.count(dropped.count, "change")):\n")
        terminal.write(dropped.map { "  \($0.offset + 1). \(QueueReport.summary(of: $0.element))\n" }.joined())
        if !after.isEmpty && !isOffline {
            let report = try await queue.replay()
            if !report.sent.isEmpty {
                terminal.write(
                    "Sent \(QueueReport.count(report.sent.count, "change")) to \(queue.server.absoluteString).\n"
                )
            }
        }
        // From the server when it answers, so a todo it no longer has leaves the local copy.
        let policy: ReadPolicy = isOffline ? .localOnly : .remoteFirst
        try await syncing(with: .server(queue.server)) { () async throws(SyncError) in
            try await todos.fetch(reset: true, options: SyncOptions(readPolicy: policy))
        }
    }
}
