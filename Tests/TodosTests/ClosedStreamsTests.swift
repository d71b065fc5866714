import Foundation
import Testing

/// `todos` with standard output or error closed, or a reader that goes away: the command
/// still does its work and exits normally instead of crashing.
struct ClosedStreamsTests {
    /// Runs `todos` through bash with a shell snippet around it (`$0 "$@"` is the command).
    private func runThroughShell(_ snippet: String, _ arguments: [String], in sandbox: TodosSandbox) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", snippet, try TodosExecutable.url().path, "--store", sandbox.store.path] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = sandbox.home.path
        environment["NO_COLOR"] = "1"
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test func addWithStandardOutputClosedSavesTheTodoAndSucceeds() async throws {
        let sandbox = try TodosSandbox()
        #expect(try runThroughShell(#"exec "$0" "$@" >&-"#, ["add", "Buy milk"], in: sandbox) == 0)
        let listed = try await sandbox.succeed(["list"])
        #expect(listed.stdout.contains("Buy milk"))
    }

    @Test func anErrorWithBothStreamsClosedExitsWithItsStatus() throws {
        let sandbox = try TodosSandbox()
        let open = try runThroughShell(#"exec "$0" "$@" > /dev/null 2>&1"#, ["toggle", "#9"], in: sandbox)
        #expect(open == 2)
        #expect(try runThroughShell(#"exec "$0" "$@" >&- 2>&-"#, ["toggle", "#9"], in: sandbox) == open)
    }

    @Test func aReaderThatIsGoneDoesNotKillTheList() async throws {
        let sandbox = try TodosSandbox()
        try await sandbox.succeed(["add", "Buy milk"])
        // `true` exits without reading, so the list is written into a pipe nobody reads.
        let status = try runThroughShell(#"set -o pipefail; "$0" "$@" | true"#, ["list"], in: sandbox)
        #expect(status == 0)
    }
}
