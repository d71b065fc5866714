import Keel

// MARK: - Commands

/// One thing the user asked `todos` to do.
enum Command: Equatable {
    /// `todos add <title…>`: the words joined by spaces.
    case add(title: String)
    /// `todos list [--all|--active|--completed]`.
    case list(ListFilter)
    /// `todos toggle <n|#id>`.
    case toggle(ItemReference)
    /// `todos edit <n|#id> <title…>`.
    case edit(ItemReference, title: String)
    /// `todos remove <n|#id>`.
    case remove(ItemReference)
    /// `todos clear-completed`.
    case clearCompleted
    /// `todos doctor`: lists damaged todos in the store.
    case doctor
    /// `todos watch`: prints the list, and again whenever it changes, until Ctrl-C.
    case watch
    /// `todos repair <#id> <title…>`: stores a new title for a damaged todo.
    case repair(ItemReference, title: String)
    /// `todos sync`: sends the changes queued for the server.
    case sync
    /// `todos status`: shows the changes waiting for the server, and the conflicts.
    case status
    /// `todos retry [<n>|#id]`: makes rejected changes pending again, then syncs; with no
    /// argument, every rejected change.
    case retry(ItemReference?)
    /// `todos discard <n>|#id`: drops queued changes unsent.
    case discard(ItemReference)
    /// `todos help [command]`, `todos --help`, `todos <command> --help`.
    case help(CommandName?)
    /// `todos --version`.
    case version
}

extension Command {
    /// The command's name, as typed.
    var name: CommandName {
        switch self {
        case .add: return .add
        case .list: return .list
        case .toggle: return .toggle
        case .edit: return .edit
        case .remove: return .remove
        case .clearCompleted: return .clearCompleted
        case .doctor: return .doctor
        case .watch: return .watch
        case .repair: return .repair
        case .sync: return .sync
        case .status: return .status
        case .retry: return .retry
        case .discard: return .discard
        case .help, .version: return .help
        }
    }
}

/// The names of the commands, as typed.
enum CommandName: String, CaseIterable {
    case add, list, toggle, edit, remove
    case clearCompleted = "clear-completed"
    case doctor, repair, sync, status, retry, discard, watch
    case help

    /// Whether the command only reads the todos (it changes neither the store nor the
    /// queue), so a read-only store is no reason for it to fail.
    var onlyReads: Bool {
        [.list, .doctor, .status, .help, .watch].contains(self)
    }

    /// Words people type for a command, used only to suggest the right one.
    private static let synonyms: [String: CommandName] = [
        "new": .add, "create": .add, "ls": .list, "show": .list, "done": .toggle, "check": .toggle,
        "complete": .toggle, "rename": .edit, "rm": .remove, "del": .remove, "delete": .remove,
        "clear": .clearCompleted, "clean": .clearCompleted, "purge": .clearCompleted,
        "push": .sync, "send": .sync, "pending": .status, "queue": .status, "resend": .retry,
        "drop": .discard, "forget": .discard,
    ]

    /// The command a mistyped name most likely meant, if any is close.
    static func suggestion(for name: String) -> CommandName? {
        let lowered = name.lowercased()
        if let exact = CommandName(rawValue: lowered) { return exact }
        if let synonym = synonyms[lowered] { return synonym }
        let scored = allCases.map { ($0, editDistance(lowered, $0.rawValue)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2 else { return nil }
        return best.0
    }

    /// Levenshtein distance between two short words.
    private static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs)
        let b = Array(rhs)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            previous = current
        }
        return previous[b.count]
    }
}

/// Which todos `list` shows.
enum ListFilter: String, CaseIterable {
    case all, active, completed
}

/// How the user names one todo: its 1-based position in the full list, or `#id`.
enum ItemReference: Equatable, CustomStringConvertible {
    /// The number `todos list` prints in front of the todo (1-based, in the full list).
    case position(Int)
    /// The todo's id, typed as `#7`.
    case id(JSONValue)

    /// Reads `3` or `#3`.
    ///
    /// - Throws: ``UsageError`` when the text is neither a positive number nor `#` and an id.
    init(parsing text: String) throws(UsageError) {
        if text.hasPrefix("#") {
            let id = String(text.dropFirst())
            guard !id.isEmpty else { throw UsageError("'#' must be followed by a todo's id, as in '#3'") }
            self = .id(Int(id).map(JSONValue.int) ?? .string(id))
            return
        }
        guard let number = Int(text) else {
            throw UsageError(
                "'\(text)' is not a todo number or #id",
                hint: "Use the number that 'todos list' prints, or the id after '#' (quoted: '#3')."
            )
        }
        guard number >= 1 else {
            throw UsageError("there is no todo number \(number): todos are numbered from 1")
        }
        self = .position(number)
    }

    var description: String {
        switch self {
        case .position(let number): return "number \(number)"
        case .id(let id): return "#" + (id.stringValue ?? id.description)
        }
    }
}

// MARK: - Parsing

/// A parsed command line: the command, plus the backend options as given.
struct Invocation: Equatable {
    /// What to do.
    var command: Command
    /// The value of `--store`, if given.
    var store: String?
    /// The value of `--server`, if given.
    var server: String?

    /// Every option `todos` knows.
    static let parser = ArgumentParser(options: [
        .flag("help", short: "h"), .flag("version"), .value("store"), .value("server"),
        .flag("all"), .flag("active"), .flag("completed"),
    ])

    /// Interprets the command line.
    ///
    /// With no command, `todos` lists the todos. `--help` wins over everything else, then
    /// `--version`.
    ///
    /// - Parameter arguments: The arguments, without the program name.
    /// - Throws: ``UsageError`` for unknown commands and options, and for missing or extra
    ///   arguments.
    init(arguments: [String]) throws(UsageError) {
        let parsed = try Self.parser.parse(arguments)
        store = parsed.value(of: "store")
        server = parsed.value(of: "server")
        var words = parsed.positionals
        let name = words.isEmpty ? nil : words.removeFirst()

        if let unknown = parsed.unknownOptions.first {
            throw Self.unknownOption(unknown, command: name.flatMap(CommandName.init(rawValue:)))
        }
        if parsed.contains("help") {
            let topic = name == CommandName.help.rawValue ? words.first : name
            command = .help(try topic.map(Self.commandName))
            return
        }
        if parsed.contains("version") {
            command = .version
            return
        }

        let filters = ListFilter.allCases.filter { parsed.contains($0.rawValue) }
        let commandName = try name.map(Self.commandName) ?? .list
        if commandName != .list, let filter = filters.first {
            throw UsageError(
                "option '--\(filter.rawValue)' only applies to 'list'",
                hint: "To use a title that starts with '-', put '--' before it: todos \(commandName.rawValue) -- …"
            )
        }

        switch commandName {
        case .add:
            guard !words.isEmpty else { throw Self.missing("<title>", for: .add) }
            command = .add(title: words.joined(separator: " "))
        case .list:
            try Self.expectNoMore(words, for: .list)
            guard filters.count <= 1 else {
                throw UsageError("choose one of --all, --active and --completed", hint: Help.usageHint(for: .list))
            }
            command = .list(filters.first ?? .all)
        case .toggle:
            command = .toggle(try Self.reference(&words, for: .toggle))
            try Self.expectNoMore(words, for: .toggle)
        case .edit:
            let item = try Self.reference(&words, for: .edit)
            guard !words.isEmpty else { throw Self.missing("<title>", for: .edit) }
            command = .edit(item, title: words.joined(separator: " "))
        case .remove:
            command = .remove(try Self.reference(&words, for: .remove))
            try Self.expectNoMore(words, for: .remove)
        case .clearCompleted:
            try Self.expectNoMore(words, for: .clearCompleted)
            command = .clearCompleted
        case .doctor:
            try Self.expectNoMore(words, for: .doctor)
            command = .doctor
        case .watch:
            try Self.expectNoMore(words, for: .watch)
            command = .watch
        case .repair:
            let item = try Self.reference(&words, for: .repair)
            guard !words.isEmpty else { throw Self.missing("<title>", for: .repair) }
            command = .repair(item, title: words.joined(separator: " "))
        case .sync:
            try Self.expectNoMore(words, for: .sync)
            command = .sync
        case .status:
            try Self.expectNoMore(words, for: .status)
            command = .status
        case .retry:
            command = .retry(words.isEmpty ? nil : try Self.reference(&words, for: .retry))
            try Self.expectNoMore(words, for: .retry)
        case .discard:
            command = .discard(try Self.reference(&words, for: .discard))
            try Self.expectNoMore(words, for: .discard)
        case .help:
            let topic = words.isEmpty ? nil : words.removeFirst()
            try Self.expectNoMore(words, for: .help)
            command = .help(try topic.map(Self.commandName))
        }
    }

    private static func commandName(_ name: String) throws(UsageError) -> CommandName {
        if let command = CommandName(rawValue: name) { return command }
        var hint = "Run 'todos --help' to see the commands."
        if let suggestion = CommandName.suggestion(for: name) {
            hint = "Did you mean 'todos \(suggestion.rawValue)'? " + hint
        }
        throw UsageError("unknown command '\(name)'", hint: hint)
    }

    /// Explains an unknown option for the command it was given to: for commands that take a
    /// title it may be meant as one, for the others it is a mistake.
    private static func unknownOption(_ argument: String, command: CommandName?) -> UsageError {
        let option = argument.prefix { $0 != "=" }
        switch command {
        case .add:
            return UsageError(
                "unknown option '\(option)'",
                hint: "To use a title that starts with '-', put '--' before it: todos add -- \(argument)"
            )
        case .edit, .repair:
            return UsageError(
                "unknown option '\(option)'",
                hint: "To use a title that starts with '-', put '--' before it: todos edit <n|#id> -- \(argument)"
            )
        case let command?:
            return UsageError(
                "unknown option '\(option)' for '\(command.rawValue)'",
                hint: Help.usageHint(for: command)
            )
        case nil:
            return UsageError("unknown option '\(option)'", hint: "Run 'todos --help' to see the options.")
        }
    }

    private static func reference(
        _ words: inout [String],
        for command: CommandName
    ) throws(UsageError) -> ItemReference {
        guard !words.isEmpty else {
            var error = missing("<n|#id>", for: command)
            error.hint = (error.hint ?? "") + "\nAn unquoted # starts a shell comment: write '#3' in quotes."
            throw error
        }
        do {
            return try ItemReference(parsing: words.removeFirst())
        } catch {
            throw UsageError(error.message, hint: error.hint ?? Help.usageHint(for: command))
        }
    }

    private static func missing(_ argument: String, for command: CommandName) -> UsageError {
        UsageError("'\(command.rawValue)' needs \(argument)", hint: Help.usageHint(for: command))
    }

    private static func expectNoMore(_ words: [String], for command: CommandName) throws(UsageError) {
        guard let extra = words.first else { return }
        throw UsageError("unexpected argument '\(extra)' for '\(command.rawValue)'", hint: Help.usageHint(for: command))
    }
}
