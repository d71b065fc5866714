public import Foundation
import Synchronization

/// An executable product of this package (`keel-bench`, `todos`) that `swift build` or
/// `swift test` built, run as a child process by tests that need a process of their own,
/// such as memory measurements that the parallel tests of the test process would disturb.
///
///     let result = try await BuiltProduct.run("keel-bench", environment: ["UPLOAD_URL": url])
///     #expect(result.status == 0, "\(result)")
public enum BuiltProduct {
    /// What one run produced.
    public struct Result: CustomStringConvertible, Sendable {
        /// The exit status.
        public var status: Int32
        /// Everything written to standard output.
        public var stdout: String
        /// Everything written to standard error.
        public var stderr: String

        /// The status and both outputs, for test failure messages.
        public var description: String {
            "exit status \(status)\n--- stdout ---\n\(stdout)--- stderr ---\n\(stderr)"
        }
    }

    /// Why the executable could not be found.
    public struct Missing: Error, CustomStringConvertible {
        /// What was looked for, where, and how to build it.
        public let description: String
    }

    /// Runs the product with the test process's environment changed by `environment` (a
    /// `nil` value removes a variable), and collects its output (in files, so a chatty child
    /// never blocks on a full pipe); a child that runs longer than `limit` is killed.
    ///
    /// - Parameters:
    ///   - name: The product, such as `todos`.
    ///   - arguments: Its arguments.
    ///   - environment: Variables to set, or to remove with `nil`.
    ///   - directory: Its working directory; by default a new temporary one, removed afterwards.
    ///   - limit: How long it may run.
    public static func run(
        _ name: String,
        arguments: [String] = [],
        environment: [String: String?] = [:],
        in directory: URL? = nil,
        limit: Duration = .seconds(120)
    ) async throws -> Result {
        let executable = try url(of: name)
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("keel-\(name)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let stdoutURL = scratch.appendingPathComponent("stdout.txt")
        let stderrURL = scratch.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        let stdout = try FileHandle(forWritingTo: stdoutURL)
        let stderr = try FileHandle(forWritingTo: stderrURL)
        defer {
            try? stdout.close()
            try? stderr.close()
        }
        var childEnvironment = ProcessInfo.processInfo.environment
        for (variable, value) in environment { childEnvironment[variable] = value }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = childEnvironment
        process.currentDirectoryURL = directory ?? scratch
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout
        process.standardError = stderr

        let child = Child()
        let watchdog = Task.detached {
            try await Task.sleep(for: limit)
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
        return Result(
            status: status,
            stdout: try String(contentsOf: stdoutURL, encoding: .utf8),
            stderr: try String(contentsOf: stderrURL, encoding: .utf8)
        )
    }

    /// The executable: `$<NAME>_EXECUTABLE` if set (`TODOS_EXECUTABLE` for `todos`), else in the
    /// build products directory that holds the running tests, else in `<repo>/.build/debug`.
    public static func url(of name: String) throws -> URL {
        let variable = name.uppercased().replacingOccurrences(of: "-", with: "_") + "_EXECUTABLE"
        if let explicit = ProcessInfo.processInfo.environment[variable], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit)
        }
        let candidates = directories.map { $0.appendingPathComponent(name, isDirectory: false) }
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) {
            return found
        }
        throw Missing(
            description: """
                Cannot find the built `\(name)` executable (looked in \
                \(candidates.map(\.path).joined(separator: ", "))). Build it with `swift build --product \(name)`.
                """
        )
    }

    private static var directories: [URL] {
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
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // KeelTestServer
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()
        directories.append(root.appendingPathComponent(".build/debug", isDirectory: true))
        return directories
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
}
