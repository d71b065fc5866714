import Foundation
import Keel
import Testing

@testable import todos

/// The command-line parser and the backend choice, in process.
struct InvocationTests {
    @Test func optionsMayComeBeforeOrAfterTheCommand() throws {
        let before = try Invocation(arguments: ["--store", "a.sqlite", "add", "Buy", "milk"])
        let after = try Invocation(arguments: ["add", "Buy", "--store=a.sqlite", "milk"])
        #expect(before.command == .add(title: "Buy milk"))
        #expect(before.store == "a.sqlite")
        #expect(before.server == nil)
        #expect(after == before)
    }

    @Test func doubleDashEndsTheOptions() throws {
        let invocation = try Invocation(arguments: ["add", "--", "--store", "-h"])
        #expect(invocation.command == .add(title: "--store -h"))
        #expect(invocation.store == nil)
    }

    @Test func noCommandListsEverything() throws {
        #expect(try Invocation(arguments: []).command == .list(.all))
        #expect(try Invocation(arguments: ["--completed"]).command == .list(.completed))
    }

    @Test func itemsAreNumbersOrHashIDs() throws {
        #expect(try Invocation(arguments: ["toggle", "3"]).command == .toggle(.position(3)))
        #expect(try Invocation(arguments: ["remove", "#12"]).command == .remove(.id(12)))
        #expect(try Invocation(arguments: ["edit", "#ab", "x"]).command == .edit(.id("ab"), title: "x"))
    }

    @Test func helpAndVersionWin() throws {
        #expect(try Invocation(arguments: ["remove", "1", "-h"]).command == .help(.remove))
        #expect(try Invocation(arguments: ["help", "clear-completed"]).command == .help(.clearCompleted))
        #expect(try Invocation(arguments: ["--version", "bogus"]).command == .version)
    }

    @Test func mistakesAreUsageErrors() {
        #expect(
            throws: UsageError(
                "unknown command 'lst'",
                hint: "Did you mean 'todos list'? Run 'todos --help' to see the commands."
            )
        ) {
            try Invocation(arguments: ["lst"])
        }
        #expect(throws: UsageError.self) { try Invocation(arguments: ["toggle", "0"]) }
        #expect(throws: UsageError.self) { try Invocation(arguments: ["toggle", "1", "2"]) }
        #expect(throws: UsageError.self) { try Invocation(arguments: ["--store"]) }
        #expect(throws: UsageError.self) { try Invocation(arguments: ["--active=1"]) }
    }

    @Test func unknownOptionsAreExplainedForTheCommandTheyWereGivenTo() {
        #expect(
            throws: UsageError(
                "unknown option '--bogus' for 'list'",
                hint: "Usage: todos list [--all|--active|--completed]\nRun 'todos help list' for more."
            )
        ) {
            try Invocation(arguments: ["list", "--bogus"])
        }
        #expect(throws: UsageError("unknown option '-x' for 'toggle'", hint: Help.usageHint(for: .toggle))) {
            try Invocation(arguments: ["toggle", "-x", "1"])
        }
        #expect(throws: UsageError("unknown option '--sort'", hint: "Run 'todos --help' to see the options.")) {
            try Invocation(arguments: ["--sort=title"])
        }
    }

    @Test func unknownOptionsInATitleSuggestDoubleDash() {
        #expect(
            throws: UsageError(
                "unknown option '--force'",
                hint: "To use a title that starts with '-', put '--' before it: todos add -- --force"
            )
        ) {
            try Invocation(arguments: ["add", "--force", "push"])
        }
        #expect(
            throws: UsageError(
                "unknown option '--x'",
                hint: "To use a title that starts with '-', put '--' before it: todos edit <n|#id> -- --x=1"
            )
        ) {
            try Invocation(arguments: ["edit", "2", "--x=1"])
        }
    }

    @Test func backendOptionsWinOverTheEnvironment() throws {
        // Folders that exist: a store in a missing folder is refused.
        let cwd = FileManager.default.temporaryDirectory.standardizedFileURL
        let home = cwd.deletingLastPathComponent()
        let environment = ["TODOS_SERVER": "http://env.example", "TODOS_STORE": "/env.sqlite", "HOME": home.path]
        #expect(
            try Backend.resolve(store: "t.sqlite", server: nil, environment: environment, currentDirectory: cwd)
                == .store(cwd.appendingPathComponent("t.sqlite").standardizedFileURL)
        )
        #expect(
            try Backend.resolve(store: nil, server: nil, environment: environment, currentDirectory: cwd)
                == .server(try #require(URL(string: "http://env.example")))
        )
        #expect(
            try Backend.resolve(store: "~/t.sqlite", server: nil, environment: environment, currentDirectory: cwd)
                == .store(home.appendingPathComponent("t.sqlite").standardizedFileURL)
        )
        #expect(throws: UsageError.self) {
            try Backend.resolve(store: "a", server: "http://b", environment: [:], currentDirectory: cwd)
        }
    }

    #if !os(macOS)
        @Test func defaultStoreFollowsTheXDGRules() {
            let xdg = Backend.defaultStoreURL(environment: ["HOME": "/home/me", "XDG_DATA_HOME": "/data"])
            #expect(xdg.path == "/data/keel-todos/todos.sqlite")
            let relativeXDGIsIgnored = Backend.defaultStoreURL(environment: [
                "HOME": "/home/me", "XDG_DATA_HOME": "data",
            ])
            #expect(relativeXDGIsIgnored.path == "/home/me/.local/share/keel-todos/todos.sqlite")
        }
    #endif
}
