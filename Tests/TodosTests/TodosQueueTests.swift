import Foundation
import KeelTestServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `todos --server`: a change the server rejects, cannot find or keeps failing does not
/// block the queue for good. `sync` says what failed and why and exits 1, `status` numbers
/// the changes, and `retry` and `discard` take them by number or by todo.
@Suite(.serialized)
struct TodosQueueTests {
    private func serverTodos(_ base: String) async throws -> [String] {
        let url = try #require(URL(string: base + "/todos"))
        let (data, _) = try await URLSession.shared.data(from: url)
        let records = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        return records.map { record in
            "#\(record["id"] as? Int ?? -1) \(record["done"] as? Bool == true ? "[x]" : "[ ]") \(record["title"] as? String ?? "?")"
        }
    }

    /// 110 flags: 110 characters for `todos`, 220 code points for the server, whose limit is 200.
    private let titleTheServerRejects = String(repeating: "🇫🇷", count: 110)

    @Test func anAddTheServerRejectsIsReportedBySyncAndDiscardedWithTheChangesBehindIt() async throws {
        let server = try await StoppableServer()
        let sandbox = try TodosSandbox()
        let base = server.base
        await server.stop()

        let added = try await sandbox.succeed(["--server", base, "add", "Buy milk"], useStore: false)
        #expect(
            added.stderr.hasSuffix(
                "todos: 1 change waits for \(base), which cannot be reached; run 'todos sync' when it can be.\n"
            ),
            "\(added)"
        )
        try await sandbox.succeed(["--server", base, "add", titleTheServerRejects], useStore: false)
        try await sandbox.succeed(["--server", base, "edit", "#local-2", "Shorter"], useStore: false)
        try await server.start()

        let synced = try await sandbox.run(["--server", base, "sync"], useStore: false)
        #expect(synced.status == 1, "\(synced)")
        #expect(synced.stdout.hasPrefix("Sent 1 change to \(base).\n"), "\(synced)")
        #expect(
            synced.stdout.contains(
                "2 changes still wait for \(base):\n  1. add \"\(titleTheServerRejects)\" (#local-2) — rejected by the server: 422: Title "
            ),
            "\(synced)"
        )
        #expect(synced.stdout.contains("  2. edit #local-2 \"Shorter\" — waits behind change 1\n"), "\(synced)")
        #expect(
            synced.stderr.hasPrefix(
                "todos: error: 2 changes still wait for \(base): 1 change rejected by the server or in conflict, "
                    + "the others wait behind them\n'todos retry <n>' sends a change again"
            ),
            "\(synced)"
        )

        let again = try await sandbox.run(["--server", base, "sync"], useStore: false)
        #expect(again.status == 1, "a second sync does not pretend there is nothing to send: \(again)")
        #expect(!again.stdout.contains("Nothing to send"))

        let status = try await sandbox.succeed(["--server", base, "status"], useStore: false)
        let localCopy = sandbox.home.appendingPathComponent(
            ".local/share/keel-todos/servers/127.0.0.1-\(server.port).sqlite"
        )
        #expect(status.stdout.hasPrefix("2 changes wait for \(base) (1 rejected or conflicting change):\n  1. add"))
        #expect(status.stdout.hasSuffix("Local copy: \(localCopy.path)\n"), "\(status)")

        let discarded = try await sandbox.succeed(["--server", base, "discard", "1"], useStore: false)
        #expect(
            discarded.stdout.hasPrefix(
                "Discarded 2 changes:\n  1. add \"\(titleTheServerRejects)\" (#local-2)\n  2. edit #local-2 \"Shorter\"\n"
            ),
            "\(discarded)"
        )
        #expect(discarded.stdout.contains("Todos (1 active, 0 completed)\n  1. [ ] Buy milk #1\n"), "\(discarded)")
        #expect(discarded.stderr.isEmpty, "\(discarded)")

        let after = try await sandbox.succeed(["--server", base, "status"], useStore: false)
        #expect(
            after.stdout == "Nothing waits for \(base): every change has been sent.\nLocal copy: \(localCopy.path)\n"
        )
        #expect(try await serverTodos(base) == ["#1 [ ] Buy milk"])
    }

    @Test func anEditOfATodoTheServerNoLongerHasIsRetriedThenDiscardedByTodo() async throws {
        let server = try await StoppableServer()
        let sandbox = try TodosSandbox()
        let base = server.base
        try await sandbox.succeed(["--server", base, "add", "Call Bob"], useStore: false)
        await server.stop()
        try await sandbox.succeed(["--server", base, "edit", "1", "Call Bob back"], useStore: false)
        try await sandbox.succeed(["--server", base, "toggle", "1"], useStore: false)
        try await server.start()  // a new server: todo #1 is gone

        let synced = try await sandbox.run(["--server", base, "sync"], useStore: false)
        #expect(synced.status == 1, "\(synced)")
        #expect(
            synced.stdout.contains(
                "  1. edit #1 \"Call Bob back\" — rejected by the server: 404 Not Found (\"not found\")\n"
                    + "  2. mark #1 completed — waits behind change 1\n"
            ),
            "\(synced)"
        )

        let retried = try await sandbox.run(["--server", base, "retry", "1"], useStore: false)
        #expect(retried.status == 1, "\(retried)")
        #expect(retried.stdout.hasPrefix("Sending change 1 again: edit #1 \"Call Bob back\".\n"), "\(retried)")
        #expect(retried.stdout.contains("rejected by the server: 404 Not Found"), "\(retried)")

        let discarded = try await sandbox.succeed(["--server", base, "discard", "#1"], useStore: false)
        #expect(
            discarded.stdout.hasPrefix(
                "Discarded 2 changes:\n  1. edit #1 \"Call Bob back\"\n  2. mark #1 completed\n"
            ),
            "\(discarded)"
        )
        let list = try await sandbox.succeed(["--server", base, "list"], useStore: false)
        #expect(!list.stdout.contains("Call Bob"), "\(list)")
        let missing = try await sandbox.run(["--server", base, "discard", "1"], useStore: false)
        #expect(missing.status == 2, "\(missing)")
        #expect(
            missing.stderr == "todos: error: there is no change number 1 in the queue\nNothing waits for \(base).\n"
        )
    }

    @Test func aServerThatAnswersWithAnErrorIsNotCalledUnreachable() async throws {
        let shared = try await TestServer.shared
        let base = "http://127.0.0.1:\(shared.port)/website/500"
        let sandbox = try TodosSandbox()
        let expectedAnswer = "500 Internal Server Error (\"Internal Server Error · Example\")"

        let added = try await sandbox.succeed(["--server", base, "add", "Buy milk"], useStore: false)
        #expect(
            added.stderr == """
                todos: the todo server at \(base) answered with an error (\(expectedAnswer)); working with the local copy.
                todos: 1 change waits for \(base), which answered with an error (\(expectedAnswer)); run 'todos sync' to try again.

                """,
            "\(added)"
        )

        let synced = try await sandbox.run(["--server", base, "sync"], useStore: false)
        #expect(synced.status == 1, "\(synced)")
        #expect(
            synced.stdout == """
                1 change still waits for \(base):
                  1. add "Buy milk" (#local-1) — the server answered with an error: \(expectedAnswer)

                """,
            "\(synced)"
        )
        #expect(
            synced.stderr.hasSuffix(
                """
                todos: error: the todo server at \(base) answered with an error (\(expectedAnswer)); 1 change still waits
                Run 'todos sync' to try again later, or 'todos discard 1' to drop the change it refuses.

                """
            ),
            "\(synced)"
        )
        #expect(!synced.stderr.contains("cannot reach"))

        let discarded = try await sandbox.succeed(["--server", base, "discard", "1"], useStore: false)
        #expect(discarded.stdout.hasPrefix("Discarded 1 change:\n  1. add \"Buy milk\" (#local-1)\n"), "\(discarded)")
        let status = try await sandbox.succeed(["--server", base, "status"], useStore: false)
        #expect(status.stdout.hasPrefix("Nothing waits for \(base): every change has been sent.\n"), "\(status)")
    }

    @Test func retryAndDiscardNeedAServer() async throws {
        let sandbox = try TodosSandbox()
        let result = try await sandbox.run(["discard", "1"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.hasPrefix("todos: error: 'discard' works with --server only"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.store.path))
    }
}
