public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A running Rails 6.1 API app on 127.0.0.1: `Tests/RailsServer` on Puma (see
/// `Tests/RailsServer/README.md` for its API), with a fresh SQLite database.
///
/// Prefer the process-wide instance, started once on first use:
///
///     let rails = try await RailsTestServer.shared
///     let url = rails.url("notes/1")
///
/// Like ``TestServer``, the server exits by itself when the test process ends, however it
/// ends. It needs Ruby with Rails 6.1, Puma and sqlite3: `Scripts/install-rails-server.sh`
/// installs them. Set `KEEL_TEST_SERVER_VERBOSE=1` to log every request to stderr.
public final class RailsTestServer: LoopbackTestServer {
    /// Why the server could not be started (the description says what to do), or reset failed.
    public typealias Failure = TestServer.Failure

    /// The base URL, `http://127.0.0.1:PORT/`.
    public let baseURL: URL
    /// The TCP port the server listens on.
    public let port: Int

    private let process: ServerProcess
    private static let started = StartedOnce<RailsTestServer>()
    private static let installer = "Scripts/install-rails-server.sh"

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
    public static var shared: RailsTestServer {
        get async throws {
            try await started.server(named: "shared") { try await start() }
        }
    }

    /// A server of its own for one group of tests, started on first use: for suites that
    /// reset the server, which would delete the records of tests running beside them.
    ///
    ///     let rails = try await RailsTestServer.dedicated(to: "RailsResetTests")
    ///     try await rails.reset()
    ///
    /// A suite that opens Server-Sent Events streams (`GET /tasks/stream`) asks for a
    /// `concurrent` one: the default server takes one request at a time, and one open stream
    /// would hold back every other request. The first call for a name decides.
    ///
    ///     let rails = try await RailsTestServer.dedicated(to: "ServerPushRailsTests", concurrent: true)
    public static func dedicated(to name: String, concurrent: Bool = false) async throws -> RailsTestServer {
        try await started.server(named: name) { try await start(concurrent: concurrent) }
    }

    /// Terminates the server process: open streams end cleanly, and requests in progress
    /// finish (for 3 seconds at most).
    ///
    /// Safe to call more than once.
    public func stop() {
        process.stop()
    }

    /// Returns once the server process has exited after ``stop()``, so that a server started
    /// next on the same port does not share it with this one.
    ///
    ///     rails.stop()
    ///     await rails.waitUntilExited()
    public func waitUntilExited() async {
        await process.waitUntilExited()
    }

    /// Launches `ruby Tests/RailsServer/serve` and waits until it prints
    /// `KEEL_RAILS_SERVER_PORT=<port>` (it boots in about a second).
    ///
    ///     let rails = try await RailsTestServer.start()
    ///     defer { rails.stop() }
    ///
    /// A test that stops the server and starts it again passes the same `port` and `database`
    /// both times: the new server listens where the old one did, on the same records.
    ///
    /// - Parameters:
    ///   - timeout: How long to wait for the port line.
    ///   - port: A port to listen on, or `nil` for an ephemeral one.
    ///   - database: The SQLite file to use and keep (the schema is loaded into it when it is
    ///     new), or `nil` for a fresh temporary one.
    ///   - concurrent: Whether to serve requests concurrently (`serve --concurrent`), as
    ///     Server-Sent Events streams need; otherwise one at a time.
    /// - Throws: ``Failure`` when `ruby` is not on `PATH`, or the app does not start (e.g.
    ///   Rails is missing); the message names `Scripts/install-rails-server.sh`.
    public static func start(
        timeout: Duration = .seconds(60),
        port: Int? = nil,
        database: URL? = nil,
        concurrent: Bool = false
    ) async throws -> RailsTestServer {
        let root = try ServerProcess.repositoryRoot(holding: "Tests/RailsServer/serve")
        guard let ruby = executable(named: "ruby") else {
            throw Failure(
                description: """
                    Keel's Rails test server needs Ruby, and there is no `ruby` on PATH. \
                    Run `\(installer)` from the repository root (\(root.path)) to install Ruby, \
                    Rails 6.1, Puma and sqlite3, then run the tests again.
                    """
            )
        }
        var arguments: [String] = [root.appendingPathComponent("Tests/RailsServer/serve").path]
        if let port { arguments += ["--port", String(port)] }
        if let database { arguments += ["--database", database.path] }
        if concurrent { arguments.append("--concurrent") }
        let launch = ServerProcess.Launch(
            executable: ruby,
            arguments: arguments,
            directory: root,
            portMarker: "KEEL_RAILS_SERVER_PORT=",
            name: "Keel's Rails test server (Tests/RailsServer/serve)",
            remedy: "If Rails 6.1, Puma or sqlite3 are missing, run `\(installer)`."
        )
        return RailsTestServer(process: try await ServerProcess.start(launch, timeout: timeout))
    }

    /// The first executable `name` on `PATH`.
    private static func executable(named name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
