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
final class RestartableServer {
    let database: URL
    private(set) var server: TestServer?
    let port: Int

    /// Starts a server on a free port; it is started again at once with that port, so
    /// that every run of it can take the port while the previous one's connections linger.
    init(directory: URL) async throws {
        database = directory.appending(path: "server.sqlite3")
        let probe = try await TestServer.start(database: database)
        port = probe.port
        probe.stop()
        try await start()
    }

    deinit { server?.stop() }

    var baseURL: URL { url("http://127.0.0.1:\(port)/") }

    func stop() {
        server?.stop()
        server = nil
    }

    /// Starts the server again on its port; the old process may still hold the port for a
    /// moment after `stop()`, so binding is retried.
    func start() async throws {
        for _ in 0..<30 {
            do {
                server = try await TestServer.start(port: port, database: database)
                return
            } catch {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        server = try await TestServer.start(port: port, database: database)
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
