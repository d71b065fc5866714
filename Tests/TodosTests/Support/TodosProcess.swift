import Foundation
import Synchronization
import Testing

/// What one run of the `todos` executable produced.
struct TodosResult: CustomStringConvertible {
    /// The exit status.
    var status: Int32
    /// Everything written to standard output.
    var stdout: String
    /// Everything written to standard error.
    var stderr: String

    var description: String {
        "exit status \(status)\n--- stdout ---\n\(stdout)--- stderr ---\n\(stderr)"
    }
}

/// A temporary directory for one test, with its own store, home and data directories, in
/// which the built `todos` executable runs.
///
/// The child gets a clean environment: `HOME` is inside the sandbox (so a default store can
/// never touch the real one), `NO_COLOR` is set, and `TODOS_STORE`, `TODOS_SERVER` and
/// `XDG_DATA_HOME` are unset unless a test sets them.
final class TodosSandbox: Sendable {
    /// The sandbox directory; removed when the sandbox goes away.
    let directory: URL

    /// The store file that ``run(_:environment:useStore:)`` passes with `--store`.
    var store: URL { directory.appendingPathComponent("todos.sqlite") }

    /// The child's home directory.
    var home: URL { directory.appendingPathComponent("home", isDirectory: true) }

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("todos-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("home", isDirectory: true),
            withIntermediateDirectories: true
        )
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `todos` with the arguments, by default against this sandbox's store.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the program name.
    ///   - environment: Variables to set (or, with an empty value, to pass as empty).
    ///   - useStore: Whether to put `--store <sandbox>/todos.sqlite` before the arguments.
    /// - Returns: The exit status and the output.
    /// - Throws: When the executable cannot be found or started.
    func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        useStore: Bool = true
    ) async throws -> TodosResult {
        var childEnvironment = ProcessInfo.processInfo.environment
        for name in ["TODOS_STORE", "TODOS_SERVER", "XDG_DATA_HOME", "NO_COLOR"] {
            childEnvironment[name] = nil
        }
        childEnvironment["HOME"] = home.path
        childEnvironment["NO_COLOR"] = "1"
        childEnvironment.merge(environment) { $1 }
        return try await TodosExecutable.run(
            (useStore ? ["--store", store.path] : []) + arguments,
            environment: childEnvironment,
            in: directory
        )
    }

    /// Runs `todos` and requires exit status 0.
    @discardableResult
    func succeed(
        _ arguments: [String],
        environment: [String: String] = [:],
        useStore: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> TodosResult {
        let result = try await run(arguments, environment: environment, useStore: useStore)
        #expect(
            result.status == 0,
            "todos \(arguments.joined(separator: " ")): \(result)",
            sourceLocation: sourceLocation
        )
        return result
    }
}

/// The `todos` executable that `swift build` or `swift test` produced.
enum TodosExecutable {
    /// Why the executable could not be found.
    struct Missing: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs the executable and collects its output.
    ///
    /// Output goes to files rather than pipes, so a chatty child can never block on a full
    /// pipe; a child that runs for more than a minute is killed.
    static func run(
        _ arguments: [String],
        environment: [String: String],
        in directory: URL
    ) async throws -> TodosResult {
        let executable = try url()
        let id = UUID().uuidString
        let stdoutURL = directory.appendingPathComponent("stdout-\(id).txt")
        let stderrURL = directory.appendingPathComponent("stderr-\(id).txt")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        let stdout = try FileHandle(forWritingTo: stdoutURL)
        let stderr = try FileHandle(forWritingTo: stderrURL)
        defer {
            try? stdout.close()
            try? stderr.close()
            try? FileManager.default.removeItem(at: stdoutURL)
            try? FileManager.default.removeItem(at: stderrURL)
        }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout
        process.standardError = stderr

        let child = Child()
        let watchdog = Task.detached {
            try await Task.sleep(for: .seconds(60))
            child.terminate()
        }
        defer { watchdog.cancel() }
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { process in
                child.exited()
                continuation.resume(returning: process.terminationStatus)
            }
            do {
                try process.run()
                child.started(pid: process.processIdentifier)
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        return TodosResult(
            status: status,
            stdout: try String(contentsOf: stdoutURL, encoding: .utf8),
            stderr: try String(contentsOf: stderrURL, encoding: .utf8)
        )
    }

    /// A running child's pid, for the watchdog that kills it if it hangs.
    private final class Child: Sendable {
        private let state = Mutex<(pid: Int32?, hasExited: Bool)>((nil, false))

        func started(pid: Int32) { state.withLock { $0.pid = pid } }

        func exited() { state.withLock { $0.hasExited = true } }

        /// Kills the child unless it has exited (then its pid may belong to someone else).
        func terminate() {
            state.withLock { state in
                if !state.hasExited, let pid = state.pid { _ = kill(pid, SIGKILL) }
            }
        }
    }

    /// The executable: `$TODOS_EXECUTABLE` if set, else `todos` in the build products
    /// directory that holds the running tests, else `<repo>/.build/debug/todos`.
    static func url() throws -> URL {
        if let located { return located }
        let searched = candidates.map(\.path).joined(separator: ", ")
        throw Missing(
            description: """
                Cannot find the built `todos` executable (looked in \(searched)). \
                Build it with `swift build --product todos`, or set TODOS_EXECUTABLE to its path.
                """
        )
    }

    private static let located: URL? = candidates.first { url in
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
            && FileManager.default.isExecutableFile(atPath: url.path)
    }

    private static var candidates: [URL] {
        if let explicit = ProcessInfo.processInfo.environment["TODOS_EXECUTABLE"], !explicit.isEmpty {
            return [URL(fileURLWithPath: explicit)]
        }
        var directories: [URL] = []
        // macOS: the tests are a `.xctest` bundle inside the products directory.
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        // Linux: the tests are an executable in the products directory.
        directories.append(Bundle.main.bundleURL)
        if let program = CommandLine.arguments.first {
            directories.append(URL(fileURLWithPath: program).deletingLastPathComponent())
        }
        // Last resort: the default debug products directory of this checkout.
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Support
            .deletingLastPathComponent()  // TodosTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()
        directories.append(root.appendingPathComponent(".build/debug", isDirectory: true))
        return directories.map { $0.appendingPathComponent("todos", isDirectory: false) }
    }
}
