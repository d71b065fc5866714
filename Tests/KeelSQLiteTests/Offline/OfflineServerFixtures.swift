import Foundation
import Keel
import KeelSQLite
import KeelTestServer

/// An author of the test server's stock DRF resource.
final class Author: Model {
    override class var urlRoot: String? { "/drf/authors" }
    override class var wireFormat: WireFormat { .djangoREST }
}

/// A book, which points to its author by id (`author`).
final class Book: Model {
    static let writer = BelongsTo<Author>("writer", foreignKey: "author")
    override class var urlRoot: String? { "/drf/books" }
    override class var wireFormat: WireFormat { .djangoREST }
    override class var relations: [any Relation] { [writer] }
}

/// An article, whose `updated_at` the server changes on every write.
final class Article: Model {
    override class var urlRoot: String? { "/drf/articles" }
    override class var wireFormat: WireFormat { .djangoREST }
}

/// The real test server, stopped and started again on the same port with the same
/// database, so a test can take the network away and give it back.
///
/// The port is held by a bound socket that does not listen (connections are refused, as
/// when the network is gone) from before the first start until each start has succeeded, so
/// no server of a test running beside this one can be given the port while this one is down.
final class RestartableServer {
    let database: URL
    private(set) var server: TestServer?
    let port: Int
    private var hold: LoopbackSocket?

    /// Starts a server whose database lives in `directory`, with `environment` (see
    /// ``start(environment:)``).
    init(directory: URL, environment: [String: String] = [:]) async throws {
        database = directory.appending(path: "server.sqlite3")
        let hold = try LoopbackSocket(sharedWithRestarts: true)
        port = hold.port
        self.hold = hold
        try await start(environment: environment)
    }

    deinit { server?.stop() }

    var baseURL: URL { url("http://127.0.0.1:\(port)/") }

    /// Stops the server and returns once it has exited (the network is gone); its port stays
    /// held until ``start()``.
    func stop() async {
        if hold == nil { hold = try? LoopbackSocket(port: port, sharedWithRestarts: true) }
        let stopping = server
        server = nil
        stopping?.stop()
        await stopping?.waitUntilExited()
    }

    #if os(Linux)
        /// Kills the server as a crash does (``TestServer/crash()``: gunicorn's master and
        /// worker at once) and returns once it is gone; its port stays held until ``start(environment:)``.
        func crash() async {
            if hold == nil { hold = try? LoopbackSocket(port: port, sharedWithRestarts: true) }
            let crashing = server
            server = nil
            await crashing?.crash()
        }
    #endif

    /// Starts the server again on its port, then lets go of the hold; the old process may
    /// still hold the port for a moment after `stop()`, so binding is retried.
    ///
    /// `environment` is for this start only (``TestServer/start(timeout:port:database:environment:)``).
    func start(environment: [String: String] = [:]) async throws {
        defer {
            if server != nil {
                hold?.close()
                hold = nil
            }
        }
        for _ in 0..<30 {
            do {
                server = try await TestServer.start(port: port, database: database, environment: environment)
                return
            } catch {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        server = try await TestServer.start(port: port, database: database, environment: environment)
    }

    /// How many creates reached each path, and how many were answered from a stored key.
    func creates() async throws -> [String: (creates: Int, replays: Int)] {
        let response = try await RESTSync(baseURL: baseURL).perform(
            SyncRequest(method: .read, url: url("/__creates"))
        )
        var counts: [String: (creates: Int, replays: Int)] = [:]
        for (path, value) in response.body?.objectValue ?? [:] {
            counts[path] = (value["creates"]?.intValue ?? 0, value["replays"]?.intValue ?? 0)
        }
        return counts
    }

    /// A request as another client sends it.
    func send(_ method: SyncMethod, _ path: String, body: JSONValue? = nil) async throws -> SyncResponse {
        try await RESTSync(baseURL: baseURL).perform(SyncRequest(method: method, url: url(path), body: body))
    }
}

/// The test server's hold (`Tests/Server/README.md`, `keelserver/jsonapi/hold.py`): a server
/// started with ``environment`` stops before it saves a `/jsonapi/` author or article whose
/// name or title contains ``marker``, writes that name to ``file``, and waits to be killed.
struct ServerHold {
    /// The text that makes the server hold, in a name or title.
    let marker = "HOLD-\(UUID())"
    /// The file the server writes when it holds.
    let file: URL

    init(directory: URL) {
        file = directory.appending(path: "held")
    }

    /// The variables to start the server with.
    var environment: [String: String] {
        ["KEEL_TEST_SERVER_HOLD_MARKER": marker, "KEEL_TEST_SERVER_HOLD_FILE": file.path(percentEncoded: false)]
    }

    /// The name or title of the record the server holds, once it holds one; `nil` when it has
    /// not within `timeout`.
    func held(within timeout: Duration = .seconds(60)) async throws -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let data = FileManager.default.contents(atPath: file.path(percentEncoded: false)) {
                return String(decoding: data, as: UTF8.self)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }
}
