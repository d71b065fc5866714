import Foundation
import Testing

@testable import KeelSQLite

/// A store with a damaged todo, or one stored without its id: the other todos stay usable,
/// `todos doctor` reports the damage, and `remove` and `repair` fix it.
struct TodosDamagedStoreTests {
    /// A sandbox with todos One, Two and Three, and `sql` run on its store afterwards.
    private func sandbox(running sql: String) async throws -> TodosSandbox {
        let sandbox = try TodosSandbox()
        for title in ["One", "Two", "Three"] { try await sandbox.succeed(["add", title]) }
        let store = try SQLiteSync(fileURL: sandbox.store)
        defer { store.close() }
        _ = try store.execute(sql)
        return sandbox
    }

    @Test func theListSkipsADamagedTodoAndWarns() async throws {
        let sandbox = try await sandbox(running: "UPDATE records SET json = '{\"title\": ' WHERE id = '2'")
        let result = try await sandbox.succeed(["list"])
        #expect(result.stdout == "Todos (2 active, 0 completed)\n  1. [ ] One   #1\n  2. [ ] Three #3\n")
        #expect(
            result.stderr
                == "todos: warning: 1 damaged todo was skipped in \(sandbox.store.path); run 'todos doctor' to see it\n"
        )
        let toggled = try await sandbox.succeed(["toggle", "2"])
        #expect(toggled.stdout.hasPrefix("Completed \"Three\".\n"))
    }

    @Test func doctorListsTheDamageAndRemoveFixesIt() async throws {
        let sandbox = try await sandbox(running: "UPDATE records SET json = '[1, 2]' WHERE id = '2'")
        let report = try await sandbox.succeed(["doctor"])
        #expect(
            report.stdout == """
                1 damaged todo in \(sandbox.store.path):
                  #2: not a JSON object
                      stored text: [1, 2]
                Remove one with: todos remove '#<id>'
                Or give it a new title: todos repair '#<id>' <title…>

                """
        )

        let removed = try await sandbox.succeed(["remove", "#2"])
        #expect(removed.stdout == "Removed the damaged todo #2.\n")
        #expect(try await sandbox.succeed(["doctor"]).stdout == "No damaged todos in \(sandbox.store.path).\n")
        let list = try await sandbox.succeed(["list"])
        #expect(list.stderr.isEmpty)
        #expect(list.stdout.hasPrefix("Todos (2 active, 0 completed)"))
    }

    @Test func aTodoWhoseTitleIsNotTextIsReportedByListAndDoctor() async throws {
        let sandbox = try await sandbox(
            running: "UPDATE records SET json = '{\"id\": 2, \"title\": 42, \"done\": \"yes\"}' WHERE id = '2'"
        )
        let list = try await sandbox.succeed(["list"])
        #expect(
            list.stderr
                == "todos: warning: todo #2 has wrong values in \(sandbox.store.path); run 'todos doctor' to see what "
                + "is wrong\n"
        )
        let report = try await sandbox.succeed(["doctor"])
        #expect(
            report.stdout == """
                1 todo with wrong values in \(sandbox.store.path):
                  #2: its title is not text: 42; its done is not true or false: "yes"
                Give one a new title (it becomes active): todos repair '#<id>' <title…>
                Or remove it: todos remove '#<id>'

                """
        )
        let repaired = try await sandbox.succeed(["repair", "#2", "Two"])
        #expect(repaired.stdout.hasPrefix("Repaired todo #2 as \"Two\".\nTodos (3 active, 0 completed)\n"), "\(repaired)")
        #expect(try await sandbox.succeed(["doctor"]).stdout == "No damaged todos in \(sandbox.store.path).\n")
    }

    @Test func repairGivesADamagedTodoANewTitle() async throws {
        let sandbox = try await sandbox(running: "UPDATE records SET json = 'garbage' WHERE id = '2'")
        let repaired = try await sandbox.succeed(["repair", "#2", "Two", "again"])
        #expect(
            repaired.stdout == """
                Repaired todo #2 as "Two again".
                Todos (3 active, 0 completed)
                  1. [ ] One       #1
                  2. [ ] Two again #2
                  3. [ ] Three     #3

                """
        )

        let notDamaged = try await sandbox.run(["repair", "#1", "New"])
        #expect(notDamaged.status == 2)
        #expect(notDamaged.stderr.hasPrefix("todos: error: todo #1 is not damaged\n"))
        let blank = try await sandbox.run(["repair", "#2", " "])
        #expect(blank.status == 2, "#2 is no longer damaged: \(blank)")
    }

    @Test func doctorAndRepairRefuseAServer() async throws {
        let sandbox = try TodosSandbox()
        let result = try await sandbox.run(["--server", "http://127.0.0.1:1", "doctor"], useStore: false)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr == "todos: error: 'doctor' works on the local store only, not with --server\n")
    }

    @Test func aTodoStoredWithoutItsIDIsListedWithItAndToggledInPlace() async throws {
        let sandbox = try await sandbox(
            running: "UPDATE records SET json = '{\"title\":\"Two\",\"done\":false}' WHERE id = '2'"
        )
        let list = try await sandbox.succeed(["list"])
        #expect(list.stdout.contains("  2. [ ] Two   #2\n"))
        #expect(!list.stdout.contains("#?"))

        try await sandbox.succeed(["toggle", "2"])
        let after = try await sandbox.succeed(["list"])
        #expect(
            after.stdout == "Todos (2 active, 1 completed)\n  1. [ ] One   #1\n  2. [x] Two   #2\n  3. [ ] Three #3\n"
        )
    }
}
