import Foundation
import KeelTestServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// End-to-end tests of `todos --server URL` against the Django test server.
///
/// The server (Tests/Server) has a `/todos` resource for these tests. The suite is
/// serialized: every test starts from an empty server.
@Suite(.serialized)
struct TodosServerTests {
    /// The server's base URL, with `/todos` emptied.
    private func freshServer() async throws -> String {
        let server = try await TestServer.dedicated(to: "todos")
        try await server.reset()
        return "http://127.0.0.1:\(server.port)"
    }

    /// The records the server holds, decoded as `[[String: Any]]` and simplified for comparison.
    private func serverTodos(_ base: String) async throws -> [String] {
        let url = try #require(URL(string: base + "/todos"))
        let (data, _) = try await URLSession.shared.data(from: url)
        let records = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        return records.map { record in
            let id = record["id"] as? Int ?? -1
            let title = record["title"] as? String ?? "?"
            let done = record["done"] as? Bool ?? false
            return "#\(id) \(done ? "[x]" : "[ ]") \(title)"
        }
    }

    @Test func addListAndToggleGoThroughTheServer() async throws {
        let base = try await freshServer()
        let sandbox = try TodosSandbox()

        let added = try await sandbox.succeed(["--server", base, "add", "Buy milk"], useStore: false)
        #expect(added.stdout.hasPrefix("Added \"Buy milk\" (#1).\n"))
        try await sandbox.succeed(["add", "Read the Keel README", "--server", base], useStore: false)

        let toggled = try await sandbox.succeed(["--server", base, "toggle", "2"], useStore: false)
        #expect(toggled.stdout.hasPrefix("Completed \"Read the Keel README\".\n"))
        #expect(try await serverTodos(base) == ["#1 [ ] Buy milk", "#2 [x] Read the Keel README"])

        let list = try await sandbox.succeed(["--server", base, "list"], useStore: false)
        #expect(
            list.stdout == """
                Todos (1 active, 1 completed)
                  1. [ ] Buy milk             #1
                  2. [x] Read the Keel README #2

                """
        )
        #expect(!FileManager.default.fileExists(atPath: sandbox.store.path), "the store is not used")
    }

    @Test func editRemoveAndClearCompletedGoThroughTheServer() async throws {
        let base = try await freshServer()
        let sandbox = try TodosSandbox()
        for title in ["One", "Two", "Three", "Four"] {
            try await sandbox.succeed(["--server", base, "add", title], useStore: false)
        }

        try await sandbox.succeed(["--server", base, "edit", "#1", "One, renamed"], useStore: false)
        try await sandbox.succeed(["--server", base, "remove", "2"], useStore: false)
        try await sandbox.succeed(["--server", base, "toggle", "2"], useStore: false)  // "Three", now second
        #expect(try await serverTodos(base) == ["#1 [ ] One, renamed", "#3 [x] Three", "#4 [ ] Four"])

        let cleared = try await sandbox.succeed(["--server", base, "clear-completed"], useStore: false)
        #expect(cleared.stdout.hasPrefix("Removed \"Three\".\nTodos (2 active, 0 completed)\n"))
        #expect(try await serverTodos(base) == ["#1 [ ] One, renamed", "#4 [ ] Four"])
    }

    @Test func serverComesFromTheEnvironment() async throws {
        let base = try await freshServer()
        let sandbox = try TodosSandbox()
        try await sandbox.succeed(["add", "Via TODOS_SERVER"], environment: ["TODOS_SERVER": base], useStore: false)
        #expect(try await serverTodos(base) == ["#1 [ ] Via TODOS_SERVER"])
    }

    @Test func blankTitleIsRejectedBeforeReachingTheServer() async throws {
        let base = try await freshServer()
        let sandbox = try TodosSandbox()
        let result = try await sandbox.run(["--server", base, "add", "  "], useStore: false)
        #expect(result.status == 3, "\(result)")
        #expect(result.stderr == "todos: error: Title can't be blank\n")
        #expect(try await serverTodos(base).isEmpty)
    }

    @Test func missingTodoOnTheServerIsAUsageError() async throws {
        let base = try await freshServer()
        let sandbox = try TodosSandbox()
        try await sandbox.succeed(["--server", base, "add", "Only"], useStore: false)
        let result = try await sandbox.run(["--server", base, "remove", "#2"], useStore: false)
        #expect(result.status == 2, "\(result)")
        #expect(try await serverTodos(base) == ["#1 [ ] Only"])
    }

    @Test func aWrongServerIsSummarisedNotDumped() async throws {
        let shared = try await TestServer.shared
        let base = "http://127.0.0.1:\(shared.port)/website/404"
        let sandbox = try TodosSandbox()
        let result = try await sandbox.run(["--server", base, "list"], useStore: false)
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stderr == """
                todos: error: the todo server at \(base) answered 404 Not Found ("Not Found · Example")
                Check --server: todos keeps its todos at \(base)/todos (GET lists them, POST adds one).

                """
        )
    }
}
