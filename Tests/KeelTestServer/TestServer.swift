public import Foundation

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
public final class TestServer: LoopbackTestServer {
    /// Why the server could not be started (the description says what to do), or reset failed.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong and what to do about it, such as the command that installs a missing server.
        public let description: String
    }

    /// The base URL, `http://127.0.0.1:PORT/`.
    public let baseURL: URL
    /// The TCP port the server listens on.
    public let port: Int

    private let process: ServerProcess
    private static let started = StartedOnce<TestServer>()

    private init(process: ServerProcess) {
        self.process = process
        self.port = process.port
        self.baseURL = URL(string: "http://127.0.0.1:\(process.port)/")!
    }

    deinit {
        stop()
    }

    /// The shared server for the whole test run, started on first use.
    ///
    /// A start failure is remembered, so every test that asks fails the same way.
    public static var shared: TestServer {
        get async throws {
            try await started.server(named: "shared") { try await start() }
        }
    }

    /// A server of its own for one group of tests, started on first use: for suites that
    /// reset the server, which would delete the records of tests running beside them.
    public static func dedicated(to name: String) async throws -> TestServer {
        try await started.server(named: name) { try await start() }
    }

    /// Terminates the server process.
    ///
    /// Safe to call more than once.
    public func stop() {
        process.stop()
    }

    /// Returns once the server process has exited after ``stop()``, so that a server started
    /// next on the same port does not share it with this one.
    ///
    ///     server.stop()
    ///     await server.waitUntilExited()
    public func waitUntilExited() async {
        await process.waitUntilExited()
    }

    #if os(Linux)
        /// Kills the server as a crash of its machine or container does.
        ///
        /// SIGKILL goes to gunicorn's master and its worker at once, so neither answers,
        /// commits or starts a worker again; this returns once both are gone. A database file
        /// the server was given keeps what it had committed (SQLite rolls back an open
        /// transaction when the file is next opened).
        ///
        ///     await server.crash()
        ///     let again = try await TestServer.start(port: server.port, database: file)
        public func crash() async {
            await process.crash()
        }
    #endif

    /// Launches `<venv>/bin/python Tests/Server/serve.py` and waits until it
    /// prints `KEEL_TEST_SERVER_PORT=<port>`.
    ///
    /// The venv is `$KEEL_TEST_VENV` (absolute, or relative to the repo root) or
    /// `<repo root>/.build/test-server-venv`; create it with
    /// `Scripts/install-test-server.sh`.
    ///
    /// A test that stops the server and starts it again (to be offline in between) passes
    /// the same `port` and `database` both times: the new server listens where the old
    /// one did and keeps the database records (`/drf/` and the stored idempotency keys;
    /// notes, todos and users live in memory and start empty).
    ///
    /// `environment` reaches the server process on top of this process's environment, such
    /// as the test-only hold of `Tests/Server/README.md` (`KEEL_TEST_SERVER_HOLD_MARKER`).
    ///
    /// - Parameters:
    ///   - timeout: How long to wait for the port line.
    ///   - port: A port to listen on, or `nil` for an ephemeral one.
    ///   - database: The SQLite file to use and keep, or `nil` for a fresh temporary one.
    ///   - environment: Variables for the server process.
    public static func start(
        timeout: Duration = .seconds(60),
        port: Int? = nil,
        database: URL? = nil,
        environment: [String: String] = [:]
    ) async throws -> TestServer {
        let root = try ServerProcess.repositoryRoot(holding: "Tests/Server/serve.py")
        let script = root.appendingPathComponent("Tests/Server/serve.py")
        let python = venvDirectory(root: root).appendingPathComponent("bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw Failure(
                description: """
                    Keel's test server venv is missing: no executable \(python.path). \
                    Run `Scripts/install-test-server.sh` from the repository root (\(root.path)) \
                    to create it (needs python3 and PyPI), then run the tests again.
                    """
            )
        }
        let launch = ServerProcess.Launch(
            executable: python,
            arguments: [script.path] + (port.map { ["--port", String($0)] } ?? []),
            environment: ["PYTHONUNBUFFERED": "1", "PYTHONDONTWRITEBYTECODE": "1"].merging(
                database.map { ["KEEL_TEST_SERVER_DB": $0.path] } ?? [:]
            ) { $1 }.merging(environment) { $1 },
            directory: root,
            portMarker: "KEEL_TEST_SERVER_PORT=",
            name: "Keel's test server (Tests/Server/serve.py)",
            remedy: "If its Python packages are missing, run `Scripts/install-test-server.sh`."
        )
        return TestServer(process: try await ServerProcess.start(launch, timeout: timeout))
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
