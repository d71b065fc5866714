import Foundation

/// The texts of `todos --help`, `todos help <command>` and `todos --version`.
enum Help {
    /// The version `todos --version` prints.
    static let version = "0.1.0"

    /// One line per command: usage and summary, in the order the overview lists them.
    private static let commands: [(CommandName, usage: String, summary: String)] = [
        (.add, "add <title…>", "Add a todo; the words form its title."),
        (.list, "list [--all|--active|--completed]", "Show the todos (all of them unless filtered)."),
        (.toggle, "toggle <n|#id>", "Mark a todo completed, or active again."),
        (.edit, "edit <n|#id> <title…>", "Give a todo a new title."),
        (.remove, "remove <n|#id>", "Delete a todo."),
        (.clearCompleted, "clear-completed", "Delete every completed todo."),
        (.doctor, "doctor", "List damaged todos in the store, and how to fix them."),
        (.repair, "repair <#id> <title…>", "Give a damaged todo a new title (it becomes active)."),
        (.sync, "sync", "Send the waiting changes; say what failed and why."),
        (.status, "status", "Show the changes waiting for the server, numbered."),
        (.retry, "retry [<n>|#id]", "Send rejected changes again (all, one, or a todo's)."),
        (.discard, "discard <n>|#id", "Drop a waiting change, or every change of a todo."),
        (.watch, "watch", "Show the todos, and again whenever they change, until Ctrl-C."),
        (.help, "help [command]", "Show this help, or the help of one command."),
    ]

    /// The overview: every command, option, environment variable and exit status.
    ///
    /// - Parameter defaultStore: The path of the default store, as this machine resolves it.
    /// - Returns: The text, ending with a newline.
    static func overview(defaultStore: String) -> String {
        let servers = URL(fileURLWithPath: defaultStore).deletingLastPathComponent()
            .appendingPathComponent("servers").path
        let width = commands.map(\.usage.count).max() ?? 0
        let commandLines = commands.map { _, usage, summary in
            "  " + usage + String(repeating: " ", count: width - usage.count) + "  " + summary
        }
        return """
            todos: a to-do list for the terminal, built on Keel.

            Usage: todos [--store <path> | --server <url>] <command> [arguments]

            Commands:
            \(commandLines.joined(separator: "\n"))

            With no command, todos lists the todos. Every change prints the list again.

            A todo is named by its number in the full list, as 'todos list' prints it, or by
            its id after '#'. Quote the id: an unquoted # starts a shell comment.
              todos toggle 2
              todos remove '#7'

            Options:
              --store <path>   Keep the todos in this SQLite file (created if missing; its
                               folder must exist).
                               Default: \(defaultStore)
              --server <url>   Keep the todos on a REST server instead, at <url>/todos. A local
                               copy lets todos work while the server is down: changes
                               queue up until 'todos sync' (or the next change) sends them.
                               A change the server rejects waits for 'todos retry' or
                               'todos discard'. 'todos status' shows the queue and the
                               local copy's file, one per server:
                               \(servers)/<host>-<port>.sqlite
              -h, --help       Show help. 'todos <command> --help' shows a command's help.
              --version        Show the version.
              --               End of options: 'todos add -- --verbose flag' adds "--verbose flag".

            Environment:
              TODOS_STORE      Like --store.
              TODOS_SERVER     Like --server; it wins over TODOS_STORE. Options win over both.
              XDG_DATA_HOME    Where the default store lives on Linux (~/.local/share if unset).
              NO_COLOR         If set and not empty, no colors (only a terminal gets them anyway).

            Concurrent commands are safe: 'toggle' changes a todo only if no other command
            changed it since it read it, and tries again otherwise.

            Exit status:
              0  success
              1  the store or the server failed (unreadable file, connection refused, …), or
                 'sync' left changes waiting
              2  usage error: unknown command or option, missing argument, no such todo
              3  invalid todo: the title is blank or longer than \(Todo.maximumTitleLength) characters

            Examples:
              todos add Buy milk
              todos list --active
              todos edit 1 Buy oat milk
              todos --server http://127.0.0.1:8000 list

            """
    }

    /// The help of one command.
    static func details(for command: CommandName) -> String {
        "Usage: " + usage(of: command) + "\n\n" + body(of: command) + "\n"
    }

    /// `Usage: todos <command> …` and where to read more, for usage errors.
    static func usageHint(for command: CommandName) -> String {
        "Usage: \(usage(of: command))\nRun 'todos help \(command.rawValue)' for more."
    }

    private static func usage(of command: CommandName) -> String {
        "todos " + (commands.first { $0.0 == command }?.usage ?? command.rawValue)
    }

    private static func body(of command: CommandName) -> String {
        switch command {
        case .add:
            return """
                Adds a todo. The words after 'add' form its title, so quotes are optional:
                  todos add Buy milk
                  todos add "Call Bob -- about the car"
                Leading and trailing spaces are dropped. The title must not be blank and may have
                at most \(Todo.maximumTitleLength) characters (exit status 3 otherwise). A title that starts
                with '-' needs '--' first: todos add -- --force push the fix
                """
        case .list:
            return """
                Shows the todos: a header with the counts, then one line per todo with its number,
                [x] when completed, its title and its id.
                  --all         every todo (the default)
                  --active      only the todos not done yet
                  --completed   only the completed todos
                Filtered lists keep the numbers of the full list.
                """
        case .toggle:
            return """
                Marks a todo completed, or active again if it is completed.
                  todos toggle 2       the second todo of the full list
                  todos toggle '#7'    the todo whose id is 7
                It reads the todo and writes it back only if no other command changed it in
                between (a compare-and-set on its version), retrying otherwise, so toggles
                run at the same time are all kept.
                """
        case .edit:
            return """
                Gives a todo a new title; the words after the todo form it.
                  todos edit 2 Buy oat milk
                The title must not be blank (exit status 3 otherwise).
                """
        case .remove:
            return """
                Deletes a todo. A damaged todo (see 'todos doctor') is removed by its id.
                  todos remove 2
                  todos remove '#7'
                If another command removed the todo first, this one says there is no such todo
                (exit status 2).
                """
        case .watch:
            return """
                Shows the todos like 'todos list', then shows them again each time they change,
                also when another todos command changes the same store, until Ctrl-C (exit
                status 0). It looks for changes four times a second and reads the todos only
                when another command saved. With --server it asks the server every 2 seconds,
                so changes from other clients show too; while the server cannot be reached it
                shows the local copy and keeps asking.
                """
        case .doctor:
            return """
                Lists the todos of the store that cannot be read (their stored text is damaged),
                with what is wrong and what is left of them, and the todos with wrong values (a
                title that is not text, a done that is not true or false). Other commands skip
                the first and warn about both.
                Fix one with 'todos remove '#7'' or 'todos repair '#7' <title…>'.
                """
        case .repair:
            return """
                Replaces a damaged todo with a new one under the same id, with this title, not
                completed:
                  todos repair '#7' Buy milk
                Damaged todos, and todos edited by hand whose title is not text or whose done
                is not true or false, can be repaired; use 'todos edit' for the others.
                """
        case .clearCompleted:
            return """
                Deletes every completed todo, then shows what is left.
                """
        case .sync:
            return """
                With --server: sends the adds, edits and removes waiting for the server, in the
                order they were made. It says what was sent, and lists what still waits with
                why: the server cannot be reached, it answered with an error, it rejected the
                change, or an earlier change of the same todo is stuck. Exit status 1 when
                anything still waits. A todo added offline has an id like #local-1 until then.
                  todos --server http://127.0.0.1:8000 sync
                """
        case .status:
            return """
                With --server: lists the changes waiting to be sent, numbered for 'todos retry'
                and 'todos discard', with the ones the server rejected and the conflicts with
                changes made on the server, and the local copy's file.
                  todos --server http://127.0.0.1:8000 status
                """
        case .retry:
            return """
                With --server: sends changes the server rejected (or that conflict) again, as
                they are, then syncs. With no argument, every such change; with a number, that
                change of 'todos status'; with '#id', every change of that todo.
                  todos --server http://127.0.0.1:8000 retry 1
                  todos --server http://127.0.0.1:8000 retry '#local-1'
                """
        case .discard:
            return """
                With --server: drops a waiting change unsent, and the local copy takes the
                server's version of the todo back. Discarding an add also drops the later
                changes of that todo. With '#id', every change of that todo. Then the changes
                that can be sent are sent.
                  todos --server http://127.0.0.1:8000 discard 1
                  todos --server http://127.0.0.1:8000 discard '#local-1'
                """
        case .help:
            return """
                Shows the overview of todos, or the help of one command:
                  todos help edit
                """
        }
    }
}
