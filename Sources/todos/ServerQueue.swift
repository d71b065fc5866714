import Foundation
import Keel
import KeelSQLite

/// The queue of changes waiting for a todo server, as `todos` uses it: its operations with
/// their failures worded for the command line, and changes chosen by number or by todo.
@MainActor
struct ServerQueue {
    /// The server's cache and queue.
    let cache: CachingSync
    /// The server's URL.
    let server: URL
    /// The app, which words store failures.
    let app: App

    init(cache: CachingSync, server: URL, app: App) {
        self.cache = cache
        self.server = server
        self.app = app
    }

    /// The error of the last request to the server, if it failed.
    var lastFailure: SyncError? {
        (cache.remote as? FailureRecordingSync)?.lastFailure
    }

    /// The queued changes, oldest first: change 1 is the first.
    func changes() async throws(TodosError) -> [QueuedChange] {
        try await app.syncing(with: .server(server)) { () async throws(SyncError) in
            try await cache.queuedChanges()
        }
    }

    /// Sends what can be sent.
    func replay() async throws(TodosError) -> ReplayReport {
        try await app.syncing(with: .server(server)) { () async throws(SyncError) in try await cache.replay() }
    }

    /// Makes a change pending again.
    func retry(_ change: QueuedChange) async throws(TodosError) {
        try await app.syncing(with: .server(server)) { () async throws(SyncError) in try await cache.retry(change) }
    }

    /// Drops a change; the local copy takes the server's record back.
    func discard(_ change: QueuedChange) async throws(TodosError) {
        try await app.syncing(with: .server(server)) { () async throws(SyncError) in try await cache.discard(change) }
    }

    /// The changes a reference names: change `n` of the queue, or every change of todo `#id`.
    ///
    /// - Throws: A usage error when there is no such change.
    func select(_ reference: ItemReference, in changes: [QueuedChange]) throws(TodosError) -> [QueuedChange] {
        let seeThem =
            changes.isEmpty
            ? "Nothing waits for \(server.absoluteString)."
            : "\(QueueReport.waiting(changes.count)); run 'todos status' to see their numbers."
        switch reference {
        case .position(let number):
            guard number <= changes.count else {
                throw .usage(UsageError("there is no change number \(number) in the queue", hint: seeThem))
            }
            return [changes[number - 1]]
        case .id(let id):
            let key = id.stringValue ?? id.description
            let chosen = changes.filter { $0.collection == TodoList.url && $0.recordID == key }
            guard !chosen.isEmpty else {
                throw .usage(UsageError("no change of todo \(reference) waits for the server", hint: seeThem))
            }
            return chosen
        }
    }
}
