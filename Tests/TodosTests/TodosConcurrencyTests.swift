import Testing

/// Many `todos` processes on one store at once: every toggle is kept and every removal
/// happens once, in every round.
struct TodosConcurrencyTests {
    /// Runs `arguments` in `count` `todos` processes at the same time.
    private func runConcurrently(_ count: Int, _ arguments: [String], in sandbox: TodosSandbox) async throws
        -> [TodosResult]
    {
        try await withThrowingTaskGroup(of: TodosResult.self) { group in
            for _ in 0..<count {
                group.addTask { try await sandbox.run(arguments) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test(arguments: 1...3)
    func tenConcurrentTogglesKeepEveryToggle(round: Int) async throws {
        let sandbox = try TodosSandbox()
        try await sandbox.succeed(["add", "Buy milk"])
        try await sandbox.succeed(["add", "Walk"])

        let results = try await runConcurrently(10, ["toggle", "1"], in: sandbox)

        for result in results { #expect(result.status == 0, "\(result)") }
        let completed = results.filter { $0.stdout.hasPrefix("Completed \"Buy milk\".\n") }.count
        let reopened = results.filter { $0.stdout.hasPrefix("Reopened \"Buy milk\".\n") }.count
        #expect(completed == 5, "\(results)")
        #expect(reopened == 5, "\(results)")
        let list = try await sandbox.succeed(["list"])
        #expect(list.stdout.contains("1. [ ] Buy milk #1"), "an even number of toggles leaves it active")
        #expect(list.stdout.contains("2. [ ] Walk     #2"))
    }

    @Test(arguments: 1...3)
    func tenConcurrentRemovesRemoveOnceAndTellTheOthersThereIsNoSuchTodo(round: Int) async throws {
        let sandbox = try TodosSandbox()
        try await sandbox.succeed(["add", "One"])
        try await sandbox.succeed(["add", "Two"])

        let results = try await runConcurrently(10, ["remove", "#1"], in: sandbox)

        let succeeded = results.filter { $0.status == 0 }
        #expect(succeeded.count == 1, "\(results)")
        #expect(succeeded.first?.stdout.hasPrefix("Removed \"One\".\n") == true)
        for result in results where result.status != 0 {
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.hasPrefix("todos: error: there is no todo #1"), "\(result)")
            #expect(!result.stderr.contains("server"), "\(result)")
            #expect(!result.stderr.contains("404"), "\(result)")
            #expect(result.stdout.isEmpty)
        }
        let list = try await sandbox.succeed(["list"])
        #expect(list.stdout == "Todos (1 active, 0 completed)\n  1. [ ] Two #2\n")
    }
}
