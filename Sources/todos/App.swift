import Foundation
import Keel
import KeelSQLite

/// Runs one `todos` command: picks the backend (`list` and `watch` read through a live
/// query on a `Store`; the rest continue here), loads the todos into a ``TodoList``,
/// lets a ``Renderer`` listen to it, performs the command, and flushes the renderer.
@MainActor
final class App {
    let terminal: Terminal
    /// Whether the server could not be reached when the todos were loaded (`--server`).
    var isOffline = false
    private let environment: [String: String]
    private let currentDirectory: URL
    private let makeSync: (Backend, [String: String], Bool) throws(TodosError) -> any Sync

    /// Creates an app.
    ///
    /// - Parameters:
    ///   - terminal: Where output and errors go.
    ///   - environment: The process environment (`TODOS_STORE`, `TODOS_SERVER`, `HOME`, …).
    ///   - currentDirectory: What a relative `--store` path is relative to.
    ///   - makeSync: Opens the backend (given the environment, and whether the command
    ///     writes); by default ``SQLiteSync`` for a store and a ``CachingSync`` over
    ///     ``RESTSync`` for a server.
    init(
        terminal: Terminal,
        environment: [String: String],
        currentDirectory: URL,
        makeSync: @escaping (Backend, [String: String], Bool) throws(TodosError) -> any Sync = App.openBackend
    ) {
        self.terminal = terminal
        self.environment = environment
        self.currentDirectory = currentDirectory
        self.makeSync = makeSync
    }

    /// Runs the command the arguments describe.
    ///
    /// - Parameter arguments: The arguments, without the program name.
    /// - Throws: ``TodosError``, which carries the exit status.
    func run(_ arguments: [String]) async throws(TodosError) {
        let invocation: Invocation
        let backend: Backend
        do {
            invocation = try Invocation(arguments: arguments)
            switch invocation.command {
            case .help(let topic):
                let store = Backend.defaultStoreURL(environment: environment).path
                terminal.write(topic.map(Help.details) ?? Help.overview(defaultStore: store))
                return
            case .version:
                terminal.write("todos \(Help.version)\n")
                return
            default:
                backend = try Backend.resolve(
                    store: invocation.store,
                    server: invocation.server,
                    environment: environment,
                    currentDirectory: currentDirectory
                )
            }
        } catch {
            throw .usage(error)
        }

        if case .server = backend, [CommandName.doctor, .repair].contains(invocation.command.name) {
            throw .usage(
                UsageError("'\(invocation.command.name.rawValue)' works on the local store only, not with --server")
            )
        }
        if case .store = backend, [CommandName.retry, .discard].contains(invocation.command.name) {
            throw .usage(
                UsageError(
                    "'\(invocation.command.name.rawValue)' works with --server only: "
                        + "a local store has no queue of changes"
                )
            )
        }
        let sync = try makeSync(backend, environment, !invocation.command.name.onlyReads)
        // Closing checkpoints the write-ahead log, so no -wal/-shm files stay behind.
        defer {
            (sync as? SQLiteSync)?.close()
            ((sync as? CachingSync)?.local as? SQLiteOfflineStore)?.close()
        }
        if case .doctor = invocation.command, let store = sync as? SQLiteSync {
            try await doctor(store, backend: backend)
            return
        }
        if case .watch = invocation.command {
            try await watch(sync, filter: .all, backend: backend)
            return
        }
        if case .list(let filter) = invocation.command {
            try await list(sync, filter: filter, backend: backend)
            return
        }
        let todos = TodoList(sync: sync)
        let renderer = Renderer(todos: todos, terminal: terminal)
        defer { renderer.stopListening() }
        // Load quietly, so that what prints is the command's own events.
        try await load(todos, from: sync, backend: backend)
        warnAboutDamagedTodos(in: Array(todos), lastResponse: todos.lastResponse, backend: backend)
        renderer.startListening()
        do {
            try await perform(invocation.command, on: todos, backend: backend, sync: sync)
            try await reportQueue(of: sync, after: invocation.command, backend: backend)
        } catch {
            // Show what did happen before the failure, such as the todos that
            // clear-completed removed before the store failed.
            renderer.flush()
            throw error
        }
        renderer.flush()
    }

    // MARK: - Commands

    private func perform(
        _ command: Command,
        on todos: TodoList,
        backend: Backend,
        sync: any Sync
    ) async throws(TodosError) {
        switch command {
        case .add(let title):
            let attributes: Attributes = ["title": .string(Todo.cleanTitle(title)), "done": false]
            try await syncing(with: backend) { () async throws(SyncError) in
                try await todos.create(attributes, wait: true)
            }
        case .toggle(let reference):
            let todo = try find(reference, in: todos)
            if case .store = backend {
                try await toggle(todo, backend: backend)
            } else {
                let done = !todo.isDone
                try await syncing(with: backend) { () async throws(SyncError) in
                    try await todo.save(["done": .bool(done)], wait: true, patch: true)
                }
            }
        case .edit(let reference, let title):
            let todo = try find(reference, in: todos)
            let title = Todo.cleanTitle(title)
            try await syncing(with: backend, todo: todo) { () async throws(SyncError) in
                try await todo.save(["title": .string(title)], wait: true, patch: true)
            }
        case .remove(let reference):
            if let store = sync as? SQLiteSync, try await removeDamagedTodo(reference, in: todos, store: store) {
                return
            }
            let todo = try find(reference, in: todos)
            try await syncing(with: backend, todo: todo) { () async throws(SyncError) in
                try await todo.destroy(wait: true)
            }
        case .repair(let reference, let title):
            if let store = sync as? SQLiteSync {
                try await repairTodo(reference, title: title, in: todos, store: store)
            }
        case .clearCompleted:
            let completed = todos.completed
            if completed.isEmpty {
                terminal.write("No completed todos to clear.\n")
            }
            for todo in completed {
                try await syncing(with: backend, todo: todo) { () async throws(SyncError) in
                    try await todo.destroy(wait: true)
                }
            }
        case .sync, .status, .retry, .discard:
            try await performQueueCommand(command, on: todos, backend: backend)
        case .list, .help, .version, .doctor, .watch:
            break
        }
    }

    private func find(_ reference: ItemReference, in todos: TodoList) throws(TodosError) -> Todo {
        do {
            return try todos.todo(reference)
        } catch {
            throw .usage(error)
        }
    }

    // MARK: - Backends

    /// Runs one sync operation, turning its failure into a ``TodosError``: validation
    /// failures (local or the server's 422) are invalid todos, the rest backend failures.
    @discardableResult
    func syncing<Result>(
        with backend: Backend,
        todo: Todo? = nil,
        _ operation: () async throws(SyncError) -> Result
    ) async throws(TodosError) -> Result {
        do {
            return try await operation()
        } catch {
            switch (error, backend) {
            case (.validationFailed(let errors, _), _):
                throw .invalid(errors)
            case (_, .store(let file)):
                throw Self.storeError(error, file: file, todo: todo)
            case (.storage, .server(let url)):
                throw .backend("the local copy of the todos of \(url.absoluteString) failed: \(error)")
            case (_, .server(let url)):
                throw Self.serverError(error, url: url)
            }
        }
    }

    /// Opens the SQLite store (which creates the file and its directory if needed), or
    /// joins a server and its local copy (``Backend/cacheURL(for:environment:)``).
    nonisolated static func openBackend(
        _ backend: Backend,
        environment: [String: String],
        writing: Bool
    ) throws(TodosError) -> any Sync {
        switch backend {
        case .store(let file):
            do {
                return try SQLiteSync(fileURL: file)
            } catch {
                throw StoreOpenFailure.error(error, file: file, writing: writing)
            }
        case .server(let url):
            let file = Backend.cacheURL(for: url, environment: environment)
            do {
                return CachingSync(
                    remote: FailureRecordingSync(RESTSync(baseURL: url, timeout: .seconds(15))),
                    local: try SQLiteOfflineStore(fileURL: file)
                )
            } catch {
                throw StoreOpenFailure.error(error, file: file, what: "the local copy of the server's todos")
            }
        }
    }
}
