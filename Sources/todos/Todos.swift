import Keel

/// All the todos, kept in id order (the order in which they were added).
///
/// Positions in this order are the numbers `todos list` prints and that commands accept.
final class TodoList: Collection<Todo> {
    override class var url: String? { "/todos" }

    override func initialize(options: UpdateOptions) {
        // Backends list records in whatever order they keep them; sorting by id makes the
        // numbers stable from one run to the next.
        if comparator == nil { comparator = .attribute("id") }
    }

    /// The todos not done yet.
    var active: [Todo] { `where`(["done": false]) }

    /// The completed todos.
    var completed: [Todo] { `where`(["done": true]) }

    /// The 1-based position of a todo in the full list.
    func position(of todo: Todo) -> Int? {
        firstIndex { $0 === todo }.map { $0 + 1 }
    }

    /// Finds the todo a reference names.
    ///
    /// - Parameter reference: A position in the full list, or an id.
    /// - Returns: The todo.
    /// - Throws: ``UsageError`` when there is no such todo.
    func todo(_ reference: ItemReference) throws(UsageError) -> Todo {
        switch reference {
        case .position(let number):
            if number >= 1, let todo = at(number - 1) { return todo }
            let hint =
                isEmpty
                ? "The list is empty; add a todo with: todos add <title>"
                : "The list has \(count) todo\(count == 1 ? "" : "s"); run 'todos list' to see their numbers."
            throw UsageError("there is no todo number \(number)", hint: hint)
        case .id(let id):
            // `get` also finds models by client id; only a real id counts here.
            if let todo = get(id), todo.id == id { return todo }
            throw UsageError("there is no todo \(reference)", hint: "Run 'todos list' to see the ids.")
        }
    }
}
