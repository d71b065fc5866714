import Keel

/// Prints the todo list, driven by the collection's events.
///
/// Nothing asks the renderer to print the list directly. It listens to the collection:
/// `add`, `remove` and `change` (with `change:done` and `change:title`) record a line saying
/// what happened, and those and `reset`, `sort` and `sync` mark the list as out of date.
/// At the end of a command, ``flush()`` prints the recorded lines and the list, once, if
/// any event arrived; a command whose events changed nothing prints no list.
///
/// ```
/// Added "Read the Keel README" (#2).
/// Todos (2 active, 0 completed)
///   1. [ ] Buy milk             #1
///   2. [ ] Read the Keel README #2
/// ```
@MainActor
final class Renderer {
    /// The widest title column, in terminal columns; longer titles push their id to the right.
    static let maximumTitleWidth = 40

    private let todos: TodoList
    private let terminal: Terminal
    private var subscription: Subscription?
    private var notices: [String] = []

    /// Which todos the list shows.
    var filter: ListFilter

    /// Whether an event arrived since the list was last printed.
    private(set) var isDirty = false

    /// Creates a renderer; it prints nothing until it listens and events arrive.
    init(todos: TodoList, terminal: Terminal, filter: ListFilter = .all) {
        self.todos = todos
        self.terminal = terminal
        self.filter = filter
    }

    // MARK: - Events

    /// Subscribes to the collection's events.
    func startListening() {
        guard subscription == nil else { return }
        subscription = todos.on(
            [
                "add": { [unowned self] event in
                    if let todo = event.model(as: Todo.self) {
                        note("Added \(quoted(todo.title))\(todo.id.map { " (#\(Self.idText($0)))" } ?? "").")
                    }
                },
                "remove": { [unowned self] event in
                    if let todo = event.model(as: Todo.self) { note("Removed \(quoted(todo.title)).") }
                },
                "change:done": { [unowned self] event in
                    if let todo = event.model(as: Todo.self) {
                        note("\(todo.isDone ? "Completed" : "Reopened") \(quoted(todo.title)).")
                    }
                },
                "change:title": { [unowned self] event in
                    if let todo = event.model(as: Todo.self) {
                        let old = todo.previous("title")?.stringValue ?? ""
                        note("Renamed \(quoted(old)) to \(quoted(todo.title)).")
                    }
                },
                "change reset sort sync": { [unowned self] _ in isDirty = true },
            ],
            owner: self
        )
    }

    /// Unsubscribes; later events are ignored.
    func stopListening() {
        subscription?.cancel()
        subscription = nil
    }

    private func note(_ line: String) {
        notices.append(line)
        isDirty = true
    }

    // MARK: - Output

    /// Prints what the events reported and then the list, if any event arrived since the
    /// last flush.
    ///
    /// - Returns: Whether anything was printed.
    @discardableResult
    func flush() -> Bool {
        guard isDirty else { return false }
        var output = ""
        for notice in notices { output += notice + "\n" }
        output += render()
        notices = []
        isDirty = false
        terminal.write(output)
        return true
    }

    /// The list as text: a header with the counts, then one line per todo that the filter
    /// shows, numbered by position in the full list.
    ///
    /// - Parameter todos: The full list; the collection's todos when `nil`.
    func render(_ todos: [Todo]? = nil) -> String {
        let all = todos ?? self.todos.models
        let completedCount = all.filter(\.isDone).count
        let activeCount = all.count - completedCount
        let rows = all.enumerated().filter { _, todo in
            switch filter {
            case .all: return true
            case .active: return !todo.isDone
            case .completed: return todo.isDone
            }
        }

        var output: String
        switch filter {
        case .all: output = "Todos (\(activeCount) active, \(completedCount) completed)"
        case .active: output = "Active todos (\(activeCount) of \(all.count))"
        case .completed: output = "Completed todos (\(completedCount) of \(all.count))"
        }
        output = terminal.styled(output, .bold) + "\n"

        if rows.isEmpty {
            let message: String
            switch filter {
            case .all: message = "Nothing to do. Add a todo with: todos add <title>"
            case .active: message = all.isEmpty ? "Nothing to do." : "Nothing left to do: every todo is completed."
            case .completed: message = "No completed todos."
            }
            return output + "  " + terminal.styled(message, .dim) + "\n"
        }

        let numberWidth = String(all.count).count
        let titles = rows.map { Self.displayText($0.element.title) }
        let widths = titles.map(DisplayWidth.of)
        let titleWidth = min(widths.max() ?? 0, Self.maximumTitleWidth)
        for ((index, todo), (title, width)) in zip(rows, zip(titles, widths)) {
            let number = String(index + 1)
            let padding = String(repeating: " ", count: max(0, titleWidth - width))
            let box = todo.isDone ? terminal.styled("[x]", .green) : "[ ]"
            let shownTitle = todo.isDone ? terminal.styled(title, .dim) : title
            let id = terminal.styled("#" + (todo.id.map(Self.idText) ?? "?"), .dim)
            output += "  " + String(repeating: " ", count: numberWidth - number.count) + number + ". "
            output += box + " " + shownTitle + padding + " " + id + "\n"
        }
        return output
    }

    // MARK: - Text

    private func quoted(_ title: String) -> String {
        "\"" + Self.displayText(title) + "\""
    }

    /// An id as the user types it after `#`.
    static func idText(_ id: JSONValue) -> String {
        id.stringValue ?? id.description
    }

    /// The title on one line: control characters (newlines, tabs, escape sequences that
    /// could restyle the terminal) become spaces.
    static func displayText(_ title: String) -> String {
        String(
            String.UnicodeScalarView(
                title.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }
            )
        )
    }
}
