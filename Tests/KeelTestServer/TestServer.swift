public import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A running Django test server on 127.0.0.1 (see `Tests/Server/README.md` for its API).
///
/// Prefer the process-wide instance, started once on first use:
///
///     let server = try await TestServer.shared
///     let url = server.url("notes/1")
///
/// The server's stdin is a pipe held by this process, so the server exits by
/// itself when the test process ends, however it ends. It also watches its
/// parent pid. Set `KEEL_TEST_SERVER_VERBOSE=1` to log every request to stderr.
public final class TestServer: Sendable {
    /// Why the server could not be started (the description says what to do), or reset failed.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// `http://127.0.0.1:PORT/`
    public let baseURL: URL
    /// The TCP port the server listens on.
    public let port: Int

    private let state: Mutex<Running?>

    private struct Running {
        let process: Process
        let stdin: FileHandle
    }

    private init(port: Int, process: sending Process, stdin: FileHandle) {
        self.port = port
        self.baseURL = URL(string: "http://127.0.0.1:\(port)/")!
        self.state = Mutex(Running(process: process, stdin: stdin))
    }

    deinit {
        stop()
    }

    /// The shared server for the whole test run, started on first use. A
    /// start failure is remembered, so every test that asks fails the same way.
    public static var shared: TestServer {
        get async throws {
            try await SharedTestServer.instance.server(named: "shared")
        }
    }

    /// A server of its own for one group of tests, started on first use: for suites that
    /// reset the server, which would delete the records of tests running beside them.
    public static func dedicated(to name: String) async throws -> TestServer {
        try await SharedTestServer.instance.server(named: name)
    }

    /// `baseURL` + `path` (a path relative to the root, e.g. `"notes/1"`; a
    /// leading `/` is ignored). Percent-encode ids yourself.
    public func url(_ path: String) -> URL {
        let relative = path.hasPrefix("/") ? String(path.dropFirst()) : path
        return URL(string: relative, relativeTo: baseURL)!.absoluteURL
    }

    /// `POST /__reset`: deletes all notes, todos and users and resets the id counters.
    /// The shared server is used by tests running in parallel: prefer creating
    /// your own records over resetting.
    public func reset() async throws {
        var request = URLRequest(url: url("__reset"))
        request.httpMethod = "POST"
        let (_, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 204 else {
            throw Failure(description: "POST /__reset failed: \(response)")
        }
    }

    /// Terminates the server process. Safe to call more than once.
    public func stop() {
        guard let running = state.withLock({ state in
            let running = state
            state = nil
            return running
        }) else { return }
        try? running.stdin.close()  // serve.py exits on EOF…
        if running.process.isRunning {
            running.process.terminate()  // …or on SIGTERM, whichever is first
        }
    }

    /// Launches `<venv>/bin/python Tests/Server/serve.py` and waits until it
    /// prints `KEEL_TEST_SERVER_PORT=<port>`.
    ///
    /// The venv is `$KEEL_TEST_VENV` (absolute, or relative to the repo root) or
    /// `<repo root>/.build/test-server-venv`; create it with
    /// `Scripts/install-test-server.sh`.
    public static func start(timeout: Duration = .seconds(60)) async throws -> TestServer {
        let root = try repositoryRoot()
        let script = root.appendingPathComponent("Tests/Server/serve.py")
        let venv = venvDirectory(root: root)
        let python = venv.appendingPathComponent("bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw Failure(description: """
                Keel's test server venv is missing: no executable \(python.path). \
                Run `Scripts/install-test-server.sh` from the repository root (\(root.path)) \
                to create it (needs python3 and PyPI), then run the tests again.
                """)
        }

        let process = Process()
        process.executableURL = python
        process.arguments = [script.path]
        process.currentDirectoryURL = root
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONUNBUFFERED"] = "1"
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        process.environment = environment

        let stdinPipe = Pipe()
        let stdoutPipe = Pipe()
        let stderrPipe = Pipe()
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe

        let startup = Startup()
        stdoutPipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
            } else {
                startup.receiveStdout(data)
            }
        }
        stderrPipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                startup.stderrClosed()
            } else {
                startup.receiveStderr(data)
                FileHandle.standardError.write(data)
            }
        }
        process.terminationHandler = { process in
            startup.exited(status: process.terminationStatus)
        }

        let port: Int
        do {
            port = try await withThrowingTaskGroup(of: Int.self) { group in
                group.addTask { try await startup.port() }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    startup.fail("it did not print its port within \(timeout)")
                    return try await startup.port()
                }
                do {
                    try process.run()
                } catch {
                    startup.fail("\(python.path) could not be launched: \(error)")
                }
                let port = try await group.next()!
                group.cancelAll()
                return port
            }
        } catch {
            // SIGKILL: a hung child may have SIGTERM blocked (Process on Linux
            // can pass on the spawning thread's signal mask).
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw error
        }

        // Keep the writing end of the child's stdin open for as long as the
        // server should run (Process already closed the child's ends here).
        return TestServer(port: port, process: process, stdin: stdinPipe.fileHandleForWriting)
    }

    // MARK: - Locating things

    /// Walks up from this file (Tests/KeelTestServer/) to the directory
    /// holding `Tests/Server/serve.py`.
    private static func repositoryRoot(filePath: String = #filePath) throws -> URL {
        var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while directory.path != "/" && !directory.path.isEmpty {
            let candidate = directory.appendingPathComponent("Tests/Server/serve.py")
            if FileManager.default.fileExists(atPath: candidate.path) {
                return directory
            }
            directory = directory.deletingLastPathComponent()
        }
        throw Failure(description: "Cannot find Tests/Server/serve.py above \(filePath)")
    }

    private static func venvDirectory(root: URL) -> URL {
        if let custom = ProcessInfo.processInfo.environment["KEEL_TEST_VENV"], !custom.isEmpty {
            return custom.hasPrefix("/")
                ? URL(fileURLWithPath: custom)
                : root.appendingPathComponent(custom)
        }
        return root.appendingPathComponent(".build/test-server-venv")
    }
}

/// Starts each named server once; remembers the result (or the error).
private actor SharedTestServer {
    static let instance = SharedTestServer()

    private var starting: [String: Task<TestServer, any Error>] = [:]

    func server(named name: String) async throws -> TestServer {
        if let task = starting[name] {
            return try await task.value
        }
        let task = Task { try await TestServer.start() }
        starting[name] = task
        return try await task.value
    }
}

/// Collects the server's output until the port line arrives, or the start fails.
private final class Startup: Sendable {
    private struct State {
        var stdout = Data()
        var stderr = Data()
        var stderrClosed = false
        var exitStatus: Int32?
        var result: Result<Int, TestServer.Failure>?
        var waiters: [CheckedContinuation<Int, any Error>] = []
    }

    private let state = Mutex(State())
    private static let marker = "KEEL_TEST_SERVER_PORT="
    private static let stderrLimit = 16 * 1024

    func receiveStdout(_ data: Data) {
        let port: Int? = state.withLock { state in
            guard state.result == nil else { return nil }
            state.stdout.append(data)
            // Only complete lines: the port may arrive in pieces.
            let text = String(decoding: state.stdout, as: UTF8.self)
            guard let end = text.lastIndex(of: "\n") else { return nil }
            for line in text[..<end].split(separator: "\n") where line.hasPrefix(Self.marker) {
                return Int(line.dropFirst(Self.marker.count).trimmingCharacters(in: .whitespacesAndNewlines))
            }
            return nil
        }
        if let port {
            finish(.success(port))
        }
    }

    func receiveStderr(_ data: Data) {
        state.withLock { state in
            if state.stderr.count < Self.stderrLimit {
                state.stderr.append(data.prefix(Self.stderrLimit - state.stderr.count))
            }
        }
    }

    func stderrClosed() {
        let status = state.withLock { state in
            state.stderrClosed = true
            return state.exitStatus
        }
        if let status { fail("it exited with status \(status)") }
    }

    /// Fails once the process has exited and its stderr is fully read.
    func exited(status: Int32) {
        let stderrClosed = state.withLock { state in
            state.exitStatus = status
            return state.stderrClosed
        }
        if stderrClosed { fail("it exited with status \(status)") }
    }

    func fail(_ reason: String) {
        let stderr = state.withLock { String(decoding: $0.stderr, as: UTF8.self) }
        var message = "Keel's test server (Tests/Server/serve.py) failed to start: \(reason)."
        if !stderr.isEmpty {
            message += "\nIts stderr:\n\(stderr)"
        }
        message += "\nIf its Python packages are missing, run `Scripts/install-test-server.sh`."
        finish(.failure(TestServer.Failure(description: message)))
    }

    /// The port, once known (or the start failure).
    func port() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let result: Result<Int, TestServer.Failure>? = state.withLock { state in
                if state.result == nil {
                    state.waiters.append(continuation)
                }
                return state.result
            }
            if let result {
                continuation.resume(with: result)
            }
        }
    }

    private func finish(_ result: Result<Int, TestServer.Failure>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Int, any Error>] in
            guard state.result == nil else { return [] }
            state.result = result
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters {
            waiter.resume(with: result.mapError { $0 as any Error })
        }
    }
}
