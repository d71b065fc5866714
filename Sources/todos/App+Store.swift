import Foundation
import Keel
import KeelSQLite

/// What `todos` does with the local store beyond the REST operations: toggling as a
/// compare-and-set, store-worded errors, and finding, removing and repairing damaged todos.
extension App {
    /// How many times `toggle` reads and writes a todo before it gives up, when other
    /// commands keep changing it first.
    static let maximumToggleAttempts = 100

    // MARK: - Toggle

    /// Flips a todo's `done` as a compare-and-set.
    ///
    /// Reads the todo and its version, then writes it with `If-Match`; when another command
    /// changed it in between (412), reads it again and retries. The read is silent, so only
    /// the change that is kept prints.
    func toggle(_ todo: Todo, backend: Backend) async throws(TodosError) {
        var quiet = SyncOptions()
        quiet.silent = true
        for attempt in 1...Self.maximumToggleAttempts {
            let version = try await syncing(with: backend, todo: todo) { () async throws(SyncError) in
                try await todo.fetch(options: quiet).headers["etag"]
            }
            var conditional = SyncOptions()
            conditional.headers["If-Match"] = version ?? "*"
            let done = !todo.isDone
            let saved = try await syncing(with: backend, todo: todo) { () async throws(SyncError) -> Bool in
                do throws(SyncError) {
                    try await todo.save(["done": .bool(done)], wait: true, patch: true, options: conditional)
                    return true
                } catch .storeRefused(let refusal)
                    where attempt < Self.maximumToggleAttempts && refusal.reason != .notFound
                {
                    return false
                }
            }
            if saved { return }
            // Another command was first; let it finish before reading again.
            try? await Task.sleep(for: .milliseconds(Int.random(in: 1...10)))
        }
    }

    // MARK: - Errors

    /// A failure of the local store, worded as the store's: a todo another command removed
    /// is "no such todo" (exit status 2), never an HTTP status.
    static func storeError(_ error: SyncError, file: URL, todo: Todo?) -> TodosError {
        let name = todo?.id.map { "todo #" + Renderer.idText($0) } ?? "todo"
        switch error {
        case .storeRefused(let refusal) where refusal.reason == .notFound:
            return .usage(
                UsageError(
                    "there is no \(name) any more: another todos command removed it",
                    hint: "Run 'todos list' to see the todos."
                )
            )
        case .storeRefused(let refusal) where refusal.status == 412:
            return .backend(
                "other todos commands kept changing \(name) in \(file.path) (tried \(maximumToggleAttempts) times); "
                    + "run the command again"
            )
        case .storage(let message) where message.contains("SQLITE_READONLY"):
            return .backend("cannot change the todo store \(file.path): it is read-only")
        case .storage(let message):
            return .backend(
                message.contains(file.path)
                    ? "the todo store failed: \(message)" : "the todo store \(file.path) failed: \(message)"
            )
        case .storeRefused(let refusal):
            return .backend("the todo store \(file.path) refused the change: \(refusal)")
        default:
            return .backend("the todo store \(file.path) failed: \(error)")
        }
    }

    // MARK: - Damaged todos

    /// Warns on standard error when loading the list skipped damaged todos, or found todos
    /// with wrong values (a title that is not text).
    func warnAboutDamagedTodos(in todos: [Todo], lastResponse: SyncResponse?, backend: Backend) {
        guard case .store(let file) = backend else { return }
        let wrong = todos.filter { !$0.defects.isEmpty }.compactMap { $0.id.map { "#" + Renderer.idText($0) } }
        if !wrong.isEmpty {
            let which = wrong.count == 1 ? "todo \(wrong[0]) has" : "todos \(wrong.joined(separator: ", ")) have"
            terminal.writeError(
                "todos: warning: \(which) wrong values in \(file.path); run 'todos doctor' to see what is wrong\n"
            )
        }
        guard let count = lastResponse?.headers[SQLiteSync.damagedRecordsHeader].flatMap({ Int($0) }), count > 0
        else { return }
        let which = count == 1 ? "1 damaged todo was" : "\(count) damaged todos were"
        let them = count == 1 ? "it" : "them"
        terminal.writeError("todos: warning: \(which) skipped in \(file.path); run 'todos doctor' to see \(them)\n")
    }

    /// `todos doctor`: lists the damaged todos, what is wrong with them and what is left.
    func doctor(_ store: SQLiteSync, backend: Backend) async throws(TodosError) {
        guard case .store(let file) = backend else { return }
        let damaged = try await damagedTodos(in: store, file: file)
        let todos = TodoList(sync: store)
        try await syncing(with: backend) { () async throws(SyncError) in try await todos.fetch(reset: true) }
        let wrong = todos.filter { !$0.defects.isEmpty }
        guard !damaged.isEmpty || !wrong.isEmpty else {
            terminal.write("No damaged todos in \(file.path).\n")
            return
        }
        var output = ""
        if !damaged.isEmpty {
            output += "\(damaged.count) damaged todo\(damaged.count == 1 ? "" : "s") in \(file.path):\n"
            for record in damaged {
                let text = Renderer.displayText(String(record.storedText.prefix(60)))
                output += "  #\(record.id): \(record.reason)\n"
                output += "      stored text: \(text)\(record.storedText.count > 60 ? "…" : "")\n"
            }
            output += "Remove one with: todos remove '#<id>'\n"
            output += "Or give it a new title: todos repair '#<id>' <title…>\n"
        }
        if !wrong.isEmpty {
            output += "\(wrong.count) todo\(wrong.count == 1 ? "" : "s") with wrong values in \(file.path):\n"
            for todo in wrong {
                let id = todo.id.map(Renderer.idText) ?? "?"
                output += "  #\(id): \(todo.defects.map(Renderer.displayText).joined(separator: "; "))\n"
            }
            output += "Give one a new title (it becomes active): todos repair '#<id>' <title…>\n"
            output += "Or remove it: todos remove '#<id>'\n"
        }
        terminal.write(output)
    }

    /// Removes the todo `reference` names when it is a damaged one; `false` for any other.
    func removeDamagedTodo(_ reference: ItemReference, in todos: TodoList, store: SQLiteSync) async throws(TodosError)
        -> Bool
    {
        guard case .id(let id) = reference, todos.get(id)?.id != id, let file = store.fileURL else { return false }
        let key = Renderer.idText(id)
        guard let record = try await damagedTodos(in: store, file: file).first(where: { $0.id == key }) else {
            return false
        }
        do {
            try await store.removeRecord(at: record.path)
        } catch .recordNotFound {
            throw .usage(UsageError("there is no todo #\(key) any more: another todos command removed it"))
        } catch {
            throw .backend("the todo store failed: \(error)")
        }
        terminal.write("Removed the damaged todo #\(key).\n")
        return true
    }

    /// `todos repair '#7' <title…>`: stores a new, active todo with this title under a
    /// damaged todo's id, then shows the list.
    func repairTodo(
        _ reference: ItemReference,
        title: String,
        in todos: TodoList,
        store: SQLiteSync
    ) async throws(TodosError) {
        guard case .id(let id) = reference, let file = store.fileURL else {
            throw .usage(
                UsageError(
                    "'repair' needs the id of a damaged todo, as in '#7'",
                    hint: "Run 'todos doctor' to see them."
                )
            )
        }
        let key = Renderer.idText(id)
        let candidate = Todo(["title": .string(Todo.cleanTitle(title)), "done": false])
        if let todo = todos.get(id), todo.id == id, !todo.defects.isEmpty {
            if !candidate.isValid() { throw .invalid(candidate.validationError ?? ValidationError(messages: [])) }
            var quiet = SyncOptions()
            quiet.silent = true
            try await syncing(with: .store(file), todo: todo) { () async throws(SyncError) in
                try await todo.save(["title": .string(candidate.title), "done": false], wait: true, options: quiet)
            }
            terminal.write("Repaired todo #\(key) as \"\(Renderer.displayText(candidate.title))\".\n")
            try await syncing(with: .store(file)) { () async throws(SyncError) in try await todos.fetch(reset: true) }
            return
        }
        guard let record = try await damagedTodos(in: store, file: file).first(where: { $0.id == key }) else {
            if todos.get(id)?.id == id {
                throw .usage(
                    UsageError("todo #\(key) is not damaged", hint: "Use 'todos edit' to give it a new title.")
                )
            }
            throw .usage(UsageError("there is no todo #\(key)", hint: "Run 'todos doctor' to see the damaged todos."))
        }
        if !candidate.isValid() { throw .invalid(candidate.validationError ?? ValidationError(messages: [])) }
        do {
            try await store.repairRecord(at: record.path, with: ["title": .string(candidate.title), "done": false])
        } catch .recordNotFound {
            throw .usage(UsageError("there is no todo #\(key) any more: another todos command removed it"))
        } catch {
            throw .backend("the todo store failed: \(error)")
        }
        terminal.write("Repaired todo #\(key) as \"\(Renderer.displayText(candidate.title))\".\n")
        try await syncing(with: .store(file)) { () async throws(SyncError) in try await todos.fetch(reset: true) }
    }

    private func damagedTodos(in store: SQLiteSync, file: URL) async throws(TodosError) -> [SQLiteDamagedRecord] {
        do {
            return try await store.damagedRecords().filter { $0.collection == TodoList.url }
        } catch {
            throw .backend("the todo store failed: \(error)")
        }
    }
}
