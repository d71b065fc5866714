import Foundation
import Testing

/// End-to-end tests of the built `todos` executable against its embedded SQLite store: one
/// sandbox (and store file) per test, every step a separate process.
struct TodosStoreTests {
    // MARK: - Commands

    @Test func addPrintsWhatTheAddEventReportedAndTheList() async throws {
        let sandbox = try TodosSandbox()
        let result = try await sandbox.succeed(["add", "Buy", "milk"])
        #expect(
            result.stdout == """
                Added "Buy milk" (#1).
                Todos (1 active, 0 completed)
                  1. [ ] Buy milk #1

                """
        )
        #expect(result.stderr.isEmpty)
    }

    @Test func listAlignsTitlesAndShowsCountsAndIDs() async throws {
        let sandbox = try TodosSandbox()
        try await sandbox.succeed(["add", "Buy milk"])
        try await sandbox.succeed(["add", "Read the Keel README"])
        try await sandbox.succeed(["toggle", "2"])

        let result = try await sandbox.succeed(["list"])
        #expect(
            result.stdout == """
                Todos (1 active, 1 completed)
                  1. [ ] Buy milk             #1
                  2. [x] Read the Keel README #2

                """
        )
        #expect(try await sandbox.succeed(["list", "--all"]).stdout == result.stdout)
        #expect(try await sandbox.succeed([]).stdout == result.stdout, "no command lists")
    }

    @Test func listOnAnEmptyStoreSaysHowToAdd() async throws {
        let sandbox = try TodosSandbox()
        let result = try await sandbox.succeed(["list"])
        #expect(result.stdout == "Todos (0 active, 0 completed)\n  Nothing to do. Add a todo with: todos add <title>\n")
    }

    @Test func filtersKeepTheNumbersOfTheFullList() async throws {
        let sandbox = try TodosSandbox()
        for title in ["One", "Two", "Three"] { try await sandbox.succeed(["add", title]) }
        try await sandbox.succeed(["toggle", "2"])

        let active = try await sandbox.succeed(["list", "--active"])
        #expect(active.stdout == "Active todos (2 of 3)\n  1. [ ] One   #1\n  3. [ ] Three #3\n")
        let completed = try await sandbox.succeed(["list", "--completed"])
        #expect(completed.stdout == "Completed todos (1 of 3)\n  2. [x] Two #2\n")
    }

    @Test func toggleCompletesAndReopens() async throws {
        let sandbox = try TodosSandbox()
        try await sandbox.succeed(["add", "Buy milk"])

        let done = try await sandbox.succeed(["toggle", "1"])
        #expect(done.stdout.hasPrefix("Completed \"Buy milk\".\nTodos (0 active, 1 completed)\n"))
        #expect(done.stdout.contains("  1. [x] Buy milk #1"))

        let reopened = try await sandbox.succeed(["toggle", "#1"])
        #expect(reopened.stdout.hasPrefix("Reopened \"Buy milk\".\nTodos (1 active, 0 completed)\n"))
    }

    @Test func editRenamesByPositionAndByID() async throws {
        let sandbox = try TodosSandbox()
        try await sandbox.succeed(["add", "Buy milk"])
        try await sandbox.succeed(["add", "Walk"])

        let byPosition = try await sandbox.succeed(["edit", "1", "Buy", "oat", "milk"])
        #expect(byPosition.stdout.hasPrefix("Renamed \"Buy milk\" to \"Buy oat milk\".\n"))

        let byID = try await sandbox.succeed(["edit", "#2", "Walk the dog"])
        #expect(byID.stdout.hasPrefix("Renamed \"Walk\" to \"Walk the dog\".\n"))
        #expect(byID.stdout.contains("  1. [ ] Buy oat milk #1\n  2. [ ] Walk the dog #2\n"))
    }

    @Test func removeDeletesByPositionAndByID() async throws {
        let sandbox = try TodosSandbox()
        for title in ["One", "Two", "Three"] { try await sandbox.succeed(["add", title]) }

        let first = try await sandbox.succeed(["remove", "2"])
        #expect(
            first.stdout == "Removed \"Two\".\nTodos (2 active, 0 completed)\n  1. [ ] One   #1\n  2. [ ] Three #3\n"
        )

        let second = try await sandbox.succeed(["remove", "#3"])
        #expect(second.stdout == "Removed \"Three\".\nTodos (1 active, 0 completed)\n  1. [ ] One #1\n")
    }

    @Test func clearCompletedRemovesOnlyCompletedTodos() async throws {
        let sandbox = try TodosSandbox()
        for title in ["One", "Two", "Three"] { try await sandbox.succeed(["add", title]) }
        try await sandbox.succeed(["toggle", "1"])
        try await sandbox.succeed(["toggle", "3"])

        let result = try await sandbox.succeed(["clear-completed"])
        #expect(
            result.stdout == """
                Removed "One".
                Removed "Three".
                Todos (1 active, 0 completed)
                  1. [ ] Two #2

                """
        )

        let again = try await sandbox.succeed(["clear-completed"])
        #expect(again.stdout == "No completed todos to clear.\n", "no events, so no list")
    }

    @Test func titlesAreTrimmedAndMayStartWithADashAfterDoubleDash() async throws {
        let sandbox = try TodosSandbox()
        try await sandbox.succeed(["add", "  Buy milk  "])
        try await sandbox.succeed(["add", "--", "--force", "push"])
        try await sandbox.succeed(["add", "-5", "degrees"])

        let list = try await sandbox.succeed(["list"])
        #expect(list.stdout.contains("1. [ ] Buy milk     #1\n"))
        #expect(list.stdout.contains("2. [ ] --force push #2\n"))
        #expect(list.stdout.contains("3. [ ] -5 degrees   #3\n"))
    }

    @Test func controlCharactersInTitlesCannotBreakTheList() async throws {
        let sandbox = try TodosSandbox()
        try await sandbox.succeed(["add", "two\nlines \u{1B}[31mred"])
        let list = try await sandbox.succeed(["list"])
        #expect(list.stdout.contains("  1. [ ] two lines  [31mred #1\n"))
        #expect(!list.stdout.contains("\u{1B}"))
    }

    // MARK: - Persistence

    @Test func aSecondProcessSeesTheFirstOnesTodos() async throws {
        let sandbox = try TodosSandbox()
        try await sandbox.succeed(["add", "Persisted"])
        try await sandbox.succeed(["toggle", "1"])
        #expect(FileManager.default.fileExists(atPath: sandbox.store.path))

        let result = try await sandbox.succeed(["list", "--completed"])
        #expect(result.stdout.contains("  1. [x] Persisted #1"))
    }

    @Test func storeCanComeFromTheEnvironment() async throws {
        let sandbox = try TodosSandbox()
        let store = sandbox.directory.appendingPathComponent("from-env/list.sqlite")
        try FileManager.default.createDirectory(at: store.deletingLastPathComponent(), withIntermediateDirectories: true)
        try await sandbox.succeed(["add", "Via env"], environment: ["TODOS_STORE": store.path], useStore: false)
        #expect(FileManager.default.fileExists(atPath: store.path))

        let viaOption = try await sandbox.succeed(["--store", store.path, "list"], useStore: false)
        #expect(viaOption.stdout.contains("Via env"))
        let otherStore = try await sandbox.succeed(["list"])
        #expect(!otherStore.stdout.contains("Via env"), "--store wins over TODOS_STORE")
    }

    @Test func relativeStorePathsAreRelativeToTheCurrentDirectory() async throws {
        let sandbox = try TodosSandbox()
        try await sandbox.succeed(["--store=relative.sqlite", "add", "Here"], useStore: false)
        #expect(
            FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent("relative.sqlite").path)
        )
    }

    @Test func defaultStoreLivesInTheUsersDataDirectory() async throws {
        let sandbox = try TodosSandbox()
        try await sandbox.succeed(["add", "In home"], useStore: false)
        #if os(macOS)
            let expected = sandbox.home.appendingPathComponent("Library/Application Support/keel-todos/todos.sqlite")
        #else
            let expected = sandbox.home.appendingPathComponent(".local/share/keel-todos/todos.sqlite")
        #endif
        #expect(FileManager.default.fileExists(atPath: expected.path))

        let help = try await sandbox.succeed(["--help"], useStore: false)
        #expect(help.stdout.contains("Default: \(expected.path)"))
    }

    #if !os(macOS)
        @Test func defaultStoreFollowsXDGDataHome() async throws {
            let sandbox = try TodosSandbox()
            let dataHome = sandbox.directory.appendingPathComponent("xdg-data")
            try await sandbox.succeed(
                ["add", "In XDG"],
                environment: ["XDG_DATA_HOME": dataHome.path],
                useStore: false
            )
            #expect(
                FileManager.default.fileExists(atPath: dataHome.appendingPathComponent("keel-todos/todos.sqlite").path)
            )
        }
    #endif

    // MARK: - Validation (exit status 3)

    @Test(arguments: [[""], ["   "], ["\t", " "]])
    func blankTitleIsRejectedWithTheValidationMessage(_ title: [String]) async throws {
        let sandbox = try TodosSandbox()
        let result = try await sandbox.run(["add"] + title)
        #expect(result.status == 3, "\(result)")
        #expect(result.stderr == "todos: error: Title can't be blank\n")
        #expect(result.stdout.isEmpty)
        #expect(try await sandbox.succeed(["list"]).stdout.hasPrefix("Todos (0 active, 0 completed)"))
    }

    @Test func blankEditIsRejectedAndTheTitleKept() async throws {
        let sandbox = try TodosSandbox()
        try await sandbox.succeed(["add", "Keep me"])
        let result = try await sandbox.run(["edit", "1", " "])
        #expect(result.status == 3, "\(result)")
        #expect(result.stderr == "todos: error: Title can't be blank\n")
        #expect(try await sandbox.succeed(["list"]).stdout.contains("1. [ ] Keep me #1"))
    }

    @Test func overlongTitleIsRejected() async throws {
        let sandbox = try TodosSandbox()
        let result = try await sandbox.run(["add", String(repeating: "x", count: 201)])
        #expect(result.status == 3, "\(result)")
        #expect(result.stderr == "todos: error: Title is too long (maximum is 200 characters)\n")
        try await sandbox.succeed(["add", String(repeating: "x", count: 200)])
    }

    // MARK: - Usage errors (exit status 2)

    @Test func unknownCommandExitsWithAUsageHint() async throws {
        let sandbox = try TodosSandbox()
        let result = try await sandbox.run(["frobnicate"])
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr == "todos: error: unknown command 'frobnicate'\nRun 'todos --help' to see the commands.\n"
        )
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: [("ad", "add"), ("rm", "remove"), ("clear", "clear-completed"), ("lsit", "list")])
    func mistypedCommandSuggestsTheRightOne(_ typed: String, _ suggested: String) async throws {
        let sandbox = try TodosSandbox()
        let result = try await sandbox.run([typed, "1"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("Did you mean 'todos \(suggested)'?"))
    }

    @Test(arguments: [
        ["toggle", "0"], ["toggle", "4"], ["toggle", "-1"], ["toggle", "abc"], ["toggle", "#99"], ["toggle", "#"],
        ["edit", "9", "New title"], ["remove", "#42"], ["remove", "two"],
    ])
    func badItemExitsWithAUsageError(_ arguments: [String]) async throws {
        let sandbox = try TodosSandbox()
        for title in ["One", "Two", "Three"] { try await sandbox.succeed(["add", title]) }

        let result = try await sandbox.run(arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.hasPrefix("todos: error: "))
        #expect(result.stdout.isEmpty)
        #expect(try await sandbox.succeed(["list"]).stdout.hasPrefix("Todos (3 active, 0 completed)"))
    }

    @Test func outOfRangeNumberSaysHowLongTheListIs() async throws {
        let sandbox = try TodosSandbox()
        try await sandbox.succeed(["add", "Only one"])
        let result = try await sandbox.run(["remove", "2"])
        #expect(result.status == 2)
        #expect(
            result.stderr == """
                todos: error: there is no todo number 2
                The list has 1 todo; run 'todos list' to see their numbers.

                """
        )
    }

    @Test(arguments: [
        ["add"], ["toggle"], ["edit", "1"], ["remove"], ["list", "extra"], ["clear-completed", "now"],
        ["list", "--active", "--completed"], ["add", "--active"], ["--bogus"], ["list", "-x"], ["--store"],
        ["--store", ""], ["--server", "not a url", "list"], ["--server", "ftp://example.com", "list"],
        ["--store", "a.sqlite", "--server", "http://127.0.0.1:1", "list"], ["--all=yes"], ["help", "nope"],
    ])
    func malformedCommandLineExitsWithStatus2(_ arguments: [String]) async throws {
        let sandbox = try TodosSandbox()
        let result = try await sandbox.run(arguments, useStore: false)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.hasPrefix("todos: error: "))
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: sandbox.home.appendingPathComponent(".local").path))
    }

    @Test func missingArgumentShowsTheCommandsUsage() async throws {
        let sandbox = try TodosSandbox()
        let result = try await sandbox.run(["edit", "1"])
        #expect(result.status == 2)
        #expect(
            result.stderr == """
                todos: error: 'edit' needs <title>
                Usage: todos edit <n|#id> <title…>
                Run 'todos help edit' for more.

                """
        )
    }

    // MARK: - Help and version

    @Test(arguments: [["--help"], ["-h"], ["help"], ["--version", "--help"]])
    func helpMentionsEveryCommandAndOption(_ arguments: [String]) async throws {
        let sandbox = try TodosSandbox()
        let result = try await sandbox.succeed(arguments, useStore: false)
        for command in ["add", "list", "toggle", "edit", "remove", "clear-completed", "help"] {
            #expect(result.stdout.contains("\n  \(command)"), "\(command) is missing from --help")
        }
        for option in ["--all", "--active", "--completed", "--store", "--server", "--help", "--version"] {
            #expect(result.stdout.contains(option), "\(option) is missing from --help")
        }
        for variable in ["TODOS_STORE", "TODOS_SERVER", "NO_COLOR"] {
            #expect(result.stdout.contains(variable))
        }
        #expect(result.stderr.isEmpty)
    }

    @Test(arguments: [["help", "edit"], ["edit", "--help"], ["edit", "-h"], ["--help", "edit"]])
    func commandHelpShowsItsUsage(_ arguments: [String]) async throws {
        let sandbox = try TodosSandbox()
        let result = try await sandbox.succeed(arguments, useStore: false)
        #expect(result.stdout.hasPrefix("Usage: todos edit <n|#id> <title…>\n"))
    }

    @Test func helpWinsOverEverythingAndTouchesNoStore() async throws {
        let sandbox = try TodosSandbox()
        try await sandbox.succeed(["remove", "99", "--help"])
        #expect(!FileManager.default.fileExists(atPath: sandbox.store.path))
    }

    @Test func versionPrintsTheVersion() async throws {
        let sandbox = try TodosSandbox()
        let result = try await sandbox.succeed(["--version"], useStore: false)
        #expect(result.stdout == "todos 0.1.0\n")
    }

    // MARK: - Store failures (exit status 1)

    @Test func fileThatIsNotADatabaseFailsClearlyAndIsLeftUntouched() async throws {
        let sandbox = try TodosSandbox()
        let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        try garbage.write(to: sandbox.store)

        for arguments in [["list"], ["add", "Milk"], ["clear-completed"]] {
            let result = try await sandbox.run(arguments)
            #expect(result.status == 1, "\(result)")
            #expect(!result.stderr.contains("store: The "), "one sentence, not two: \(result)")
            #expect(result.stderr.hasPrefix("todos: error: cannot open the todo store"))
            #expect(result.stderr.contains(sandbox.store.path))
            #expect(result.stdout.isEmpty)
        }
        #expect(try Data(contentsOf: sandbox.store) == garbage)
    }

    @Test func damagedDatabaseFailsClearlyAndIsLeftUntouched() async throws {
        let sandbox = try TodosSandbox()
        for title in ["One", "Two", "Three"] { try await sandbox.succeed(["add", title]) }
        // Keep SQLite's header page, scramble the pages that hold the schema and records.
        var bytes = try Data(contentsOf: sandbox.store)
        try #require(bytes.count > 4096)
        for index in 4096..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) }
        try bytes.write(to: sandbox.store)

        let result = try await sandbox.run(["toggle", "1"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.hasPrefix("todos: error: cannot open the todo store"))
        #expect(result.stderr.contains(sandbox.store.path))
        #expect(try Data(contentsOf: sandbox.store) == bytes)
    }

    @Test func storeLeavesNoWriteAheadLogBehind() async throws {
        let sandbox = try TodosSandbox()
        try await sandbox.succeed(["add", "Tidy"])
        try await sandbox.succeed(["toggle", "1"])
        let files = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path)
        #expect(files.filter { $0.hasPrefix("todos.sqlite") } == ["todos.sqlite"])
    }

    @Test func storeInAPlaceThatCannotBeCreatedFails() async throws {
        let sandbox = try TodosSandbox()
        let blocker = sandbox.directory.appendingPathComponent("a-file")
        try Data("not a directory".utf8).write(to: blocker)

        let result = try await sandbox.run(["--store", blocker.path + "/todos.sqlite", "list"], useStore: false)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr == "todos: error: --store names a store inside a file, not a folder: \(blocker.path)\n")
    }

    @Test func aStoreInAFolderThatDoesNotExistIsRefused() async throws {
        let sandbox = try TodosSandbox()
        let typo = sandbox.directory.appendingPathComponent("tpyo")
        let result = try await sandbox.run(["--store", typo.path + "/todos.sqlite", "add", "Milk"], useStore: false)
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr == """
                todos: error: the folder of the store given by --store does not exist: \(typo.path)
                Check the path for a typo, or create the folder first: mkdir -p '\(typo.path)'

                """
        )
        #expect(!FileManager.default.fileExists(atPath: typo.path))
        let fromEnvironment = try await sandbox.run(["list"], environment: ["TODOS_STORE": typo.path + "/t.sqlite"], useStore: false)
        #expect(fromEnvironment.status == 2, "\(fromEnvironment)")
    }

    @Test func aDefaultStoreWhoseFolderCannotBeMadeSaysWhyOnce() async throws {
        let sandbox = try TodosSandbox()
        let blocker = sandbox.home.appendingPathComponent(".local")
        try Data("not a folder".utf8).write(to: blocker)
        let store = blocker.appendingPathComponent("share/keel-todos/todos.sqlite")
        let result = try await sandbox.run(["add", "Milk"], useStore: false)
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stderr
                == "todos: error: cannot create the folder of the todo store \(store.path): \(blocker.path) is a file, "
                + "not a folder\n"
        )
    }

    @Test(.disabled(if: getuid() == 0, "root ignores file permissions, so chmod cannot deny it access"))
    func aStoreThatCannotBeWrittenSaysSo() async throws {
        let sandbox = try TodosSandbox()
        try await sandbox.succeed(["add", "Mine"])
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: sandbox.store.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: sandbox.store.path) }

        let result = try await sandbox.run(["add", "More"])
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stderr
                == "todos: error: cannot open the todo store \(sandbox.store.path): the file cannot be written "
                + "(permission denied)\n"
        )
    }

    @Test func anUnreachableServerListsTheLocalCopyWithANote() async throws {
        let sandbox = try TodosSandbox()
        let result = try await sandbox.run(["--server", "http://127.0.0.1:1", "list"], useStore: false)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.hasPrefix("todos: cannot reach the todo server at http://127.0.0.1:1"))
        #expect(result.stderr.hasSuffix("working with the local copy.\n"))
    }

    @Test func syncWithAnUnreachableServerFailsWithStatus1() async throws {
        let sandbox = try TodosSandbox()
        let result = try await sandbox.run(["--server", "http://127.0.0.1:1", "sync"], useStore: false)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("todos: error: cannot reach the todo server at http://127.0.0.1:1"))
    }

    // MARK: - Colors

    @Test func outputHasNoColorsWhenNotATerminal() async throws {
        let sandbox = try TodosSandbox()
        try await sandbox.succeed(["add", "Plain"])
        let result = try await sandbox.succeed(["list"], environment: ["NO_COLOR": "", "TERM": "xterm-256color"])
        #expect(!result.stdout.contains("\u{1B}["))
    }
}
