import Foundation
import Keel
import KeelSQLite

/// `--server` through a ``CachingSync``: loading falls back on the local copy, changes
/// queue up while the server is down, and `sync` and `status` show and send the queue.
extension App {
    /// Loads the todos: from the server when it can be reached (and stores them locally),
    /// else from the local copy, with a note on standard error.
    func load(_ todos: TodoList, from sync: any Sync, backend: Backend) async throws(TodosError) {
        guard sync is CachingSync, case .server(let url) = backend else {
            try await syncing(with: backend) { () async throws(SyncError) in try await todos.fetch(reset: true) }
            return
        }
        do {
            try await todos.fetch(reset: true, options: SyncOptions(readPolicy: .remoteOnly))
        } catch  where CachingSync.isTemporary(error) {
            isOffline = true
            terminal.writeError(
                "todos: cannot reach the todo server at \(url.absoluteString) (\(error)); working with the local copy.\n"
            )
            try await syncing(with: backend) { () async throws(SyncError) in
                try await todos.fetch(reset: true, options: SyncOptions(readPolicy: .localOnly))
            }
        } catch {
            try await syncing(with: backend) { () async throws(SyncError) in throw error }
        }
    }

    /// After a change: says on standard error how many changes wait for the server.
    func reportQueue(of sync: any Sync, after command: Command, backend: Backend) async throws(TodosError) {
        guard let cache = sync as? CachingSync, case .server(let url) = backend else { return }
        switch command {
        case .add, .toggle, .edit, .remove, .clearCompleted: break
        default: return
        }
        let waiting = try await syncing(with: backend) { () async throws(SyncError) in try await cache.queuedChanges() }
        guard !waiting.isEmpty else { return }
        terminal.writeError(
            "todos: \(QueueReport.count(waiting.count, "change")) wait for \(url.absoluteString); "
                + "run 'todos sync' when it can be reached.\n"
        )
    }

    /// `todos sync` and `todos status`.
    func performQueueCommand(_ command: Command, on todos: TodoList, backend: Backend) async throws(TodosError) {
        guard let cache = todos.sync as? CachingSync, case .server(let url) = backend else {
            terminal.write("Nothing to sync: the todos live in a local store, not on a server (see --server).\n")
            return
        }
        let server = url.absoluteString
        if command == .status {
            let changes = try await syncing(with: backend) { () async throws(SyncError) in
                try await cache.queuedChanges()
            }
            terminal.write(QueueReport.status(changes, server: server))
            return
        }
        let report = try await syncing(with: backend) { () async throws(SyncError) in try await cache.replay() }
        if report.stoppedBy != nil || (isOffline && report.sent.isEmpty) {
            let reason = report.stoppedBy.map { ": \($0)" } ?? ""
            throw .backend(
                "cannot reach the todo server at \(server)\(reason); "
                    + "\(QueueReport.count(report.remaining, "change")) still wait"
            )
        }
        terminal.write(QueueReport.synced(report, server: server))
        if !report.sent.isEmpty {
            try await syncing(with: backend) { () async throws(SyncError) in try await todos.fetch(reset: true) }
        }
    }
}
