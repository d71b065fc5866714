import Foundation

// Runs one command and exits with its status: 0 success, 1 store or server failure,
// 2 usage error, 3 invalid todo. Errors go to standard error as `todos: error: …`.
let environment = ProcessInfo.processInfo.environment
let terminal = Terminal.standard(environment: environment)
let app = App(
    terminal: terminal,
    environment: environment,
    currentDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
)
do {
    try await app.run(Array(CommandLine.arguments.dropFirst()))
    exit(0)
} catch {
    terminal.reportError(error.message, hint: error.hint)
    exit(error.exitStatus)
}
