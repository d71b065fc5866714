import Foundation
import Keel
import KeelSQLite

/// `--server` through a ``CachingSync``: loading falls back on the local copy, changes
/// queue up while the server is down or answers with errors, and a note says what waits.
extension App {
    /// Loads the todos: from the server when it answers (and stores them locally), else
    /// from the local copy, with a note on standard error.
    func load(_ todos: TodoList, from sync: any Sync, backend: Backend) async throws(TodosError) {
        try await load(
            from: sync,
            backend: backend,
            remote: { () async throws(SyncError) in
                try await todos.fetch(reset: true, options: SyncOptions(readPolicy: .remoteOnly))
            },
            local: { () async throws(SyncError) in
                try await todos.fetch(reset: true, options: SyncOptions(readPolicy: .localOnly))
            }
        )
    }

    /// Runs `remote`; with a server behind a ``CachingSync`` that cannot be reached now, says
    /// so on standard error, marks the app offline and runs `local` instead.
    func load(
        from sync: any Sync,
        backend: Backend,
        remote: () async throws(SyncError) -> Void,
        local: () async throws(SyncError) -> Void
    ) async throws(TodosError) {
        guard sync is CachingSync, case .server(let url) = backend else {
            try await syncing(with: backend, remote)
            return
        }
        do {
            try await remote()
        } catch where CachingSync.isTemporary(error) {
            isOffline = true
            terminal.writeError("todos: \(Self.unavailable(url, error)); working with the local copy.\n")
            try await syncing(with: backend, local)
        } catch {
            try await syncing(with: backend) { () async throws(SyncError) in throw error }
        }
    }

    /// Why the server could not take a request now: `cannot reach the todo server at … (…)`
    /// or `the todo server at … answered with an error (503 Service Unavailable)`.
    static func unavailable(_ url: URL, _ error: SyncError) -> String {
        let server = url.absoluteString
        if ServerAnswer.kind(of: error) == .unreachable {
            return "cannot reach the todo server at \(server) (\(ServerAnswer.summary(of: error)))"
        }
        return "the todo server at \(server) answered with an error (\(ServerAnswer.summary(of: error)))"
    }

    /// A failure of the server worded for the command line: it could not be reached, it
    /// answered with an error, or it refused the request (then it may not be a todos server).
    static func serverError(_ error: SyncError, url: URL) -> TodosError {
        switch ServerAnswer.kind(of: error) {
        case .unreachable, .serverError:
            return .backend(unavailable(url, error))
        case .rejected:
            let todos = url.appendingPathComponent("todos").absoluteString
            return .backend(
                "the todo server at \(url.absoluteString) answered \(ServerAnswer.summary(of: error))",
                hint: error.status == 404 || error.status == nil
                    ? "Check --server: todos keeps its todos at \(todos) (GET lists them, POST adds one)." : nil
            )
        }
    }

    /// After a change: says on standard error what waits for the server, and why.
    func reportQueue(of sync: any Sync, after command: Command, backend: Backend) async throws(TodosError) {
        guard let cache = sync as? CachingSync, case .server(let url) = backend else { return }
        switch command {
        case .add, .toggle, .edit, .remove, .clearCompleted, .discard: break
        default: return
        }
        let queue = try await syncing(with: backend) { () async throws(SyncError) in try await cache.queuedChanges() }
        guard !queue.isEmpty else { return }
        let server = url.absoluteString
        let stuck = queue.filter(\.isStuck).count
        let note: String
        if stuck > 0 {
            note =
                "\(QueueReport.waiting(queue.count)) for \(server), "
                + "\(stuck == 1 ? "1 of them" : "\(stuck) of them") rejected or in conflict; "
                + "run 'todos status' to see why, then 'todos retry <n>' or 'todos discard <n>'."
        } else if let failure = (cache.remote as? FailureRecordingSync)?.lastFailure,
            ServerAnswer.kind(of: failure) == .serverError
        {
            note =
                "\(QueueReport.waiting(queue.count)) for \(server), which answered with an error "
                + "(\(ServerAnswer.summary(of: failure))); run 'todos sync' to try again."
        } else if isOffline
            || (cache.remote as? FailureRecordingSync)?.lastFailure.map(ServerAnswer.kind) == .unreachable
        {
            note =
                "\(QueueReport.waiting(queue.count)) for \(server), which cannot be reached; "
                + "run 'todos sync' when it can be."
        } else {
            note = "\(QueueReport.waiting(queue.count)) for \(server); run 'todos sync' to send them."
        }
        terminal.writeError("todos: \(note)\n")
    }
}
