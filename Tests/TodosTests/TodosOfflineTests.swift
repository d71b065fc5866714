import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `todos --server` keeps working while the server is down: changes queue up in the local
/// copy, `todos status` shows them and `todos sync` sends them.
@Suite(.serialized)
struct TodosOfflineTests {
    private func serverTodos(_ base: String) async throws -> [String] {
        let url = try #require(URL(string: base + "/todos"))
        let (data, _) = try await URLSession.shared.data(from: url)
        let records = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        return records.map { record in
            "#\(record["id"] as? Int ?? -1) \(record["done"] as? Bool == true ? "[x]" : "[ ]") \(record["title"] as? String ?? "?")"
        }
    }

    @Test func changesMadeWhileTheServerIsDownAreSentBySync() async throws {
        let server = try await StoppableServer()
        let sandbox = try TodosSandbox()
        let base = server.base
        await server.stop()

        let added = try await sandbox.succeed(["--server", base, "add", "Buy milk"], useStore: false)
        #expect(added.stdout.hasPrefix("Added \"Buy milk\" (#local-1).\n"))
        #expect(
            added.stderr.contains("1 change waits for \(base), which cannot be reached; run 'todos sync' when it can be.")
        )
        try await sandbox.succeed(["--server", base, "add", "Call Bob"], useStore: false)
        try await sandbox.succeed(["--server", base, "toggle", "#local-1"], useStore: false)
        try await sandbox.succeed(["--server", base, "remove", "2"], useStore: false)

        let status = try await sandbox.succeed(["--server", base, "status"], useStore: false)
        let localCopy = sandbox.home.appendingPathComponent(
            ".local/share/keel-todos/servers/127.0.0.1-\(server.port).sqlite"
        )
        #expect(
            status.stdout == """
                4 changes wait for \(base):
                  1. add "Buy milk" (#local-1)
                  2. add "Call Bob" (#local-2)
                  3. mark #local-1 completed
                  4. remove #local-2
                'todos sync' sends them.
                Local copy: \(localCopy.path)

                """
        )
        let offlineList = try await sandbox.succeed(["--server", base, "list"], useStore: false)
        #expect(offlineList.stdout.contains("[x] Buy milk"))
        #expect(!offlineList.stdout.contains("Call Bob"))

        try await server.start()
        let synced = try await sandbox.succeed(["--server", base, "sync"], useStore: false)
        #expect(synced.stdout.hasPrefix("Sent 4 changes to \(base).\n"), "\(synced)")
        #expect(try await serverTodos(base) == ["#1 [x] Buy milk"])

        let list = try await sandbox.succeed(["--server", base, "list"], useStore: false)
        #expect(list.stdout.contains("[x] Buy milk #1"))
        let after = try await sandbox.succeed(["--server", base, "status"], useStore: false)
        #expect(after.stdout == "Nothing waits for \(base): every change has been sent.\nLocal copy: \(localCopy.path)\n")
    }

    @Test func syncAndStatusSayThereIsNothingToSyncForALocalStore() async throws {
        let sandbox = try TodosSandbox()
        let result = try await sandbox.succeed(["sync"])
        #expect(result.stdout.hasPrefix("Nothing to sync: the todos live in a local store"))
    }
}
