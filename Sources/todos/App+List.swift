import Keel
import KeelSQLite

/// `todos list`: the list read through the store's query of all todos, the same query
/// `todos watch` keeps loaded.
extension App {
    /// The query of every todo in id order (the numbers `list` prints and commands take).
    ///
    /// With a server, the query asks the server at each load (`.networkOnly`), and goes
    /// stale after ``serverWatchInterval`` so that `watch` asks again; with a local store,
    /// the store's file is the only copy, and a load reads it.
    func todosQuery(in store: Store, backend: Backend) -> LiveQuery<Todo> {
        guard case .server = backend else { return store.query(Todo.self, sort: .attribute("id")) }
        return store.query(
            Todo.self,
            sort: .attribute("id"),
            policy: .networkOnly,
            staleTime: Self.serverWatchInterval
        )
    }

    /// Loads the todos through ``todosQuery(in:backend:)`` and prints the list once.
    ///
    /// When the server cannot be reached, says so on standard error and prints the local
    /// copy instead, as every other command does.
    func list(_ sync: any Sync, filter: ListFilter, backend: Backend) async throws(TodosError) {
        let store = Store(sync: sync)
        let todos = todosQuery(in: store, backend: backend)
        let loaded = store.collection(Todo.self)
        // Offline, the local copy's todos reach the query as they are merged into the store.
        try await load(
            from: sync,
            backend: backend,
            remote: { () async throws(SyncError) in try await todos.load() },
            local: { () async throws(SyncError) in
                try await loaded.fetch(options: SyncOptions(readPolicy: .localOnly))
            }
        )
        warnAboutDamagedTodos(in: todos.models, lastResponse: todos.lastResponse, backend: backend)
        terminal.write(Renderer(todos: TodoList(), terminal: terminal, filter: filter).render(todos.models))
    }
}
