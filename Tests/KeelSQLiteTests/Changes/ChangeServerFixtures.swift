import Foundation
import Keel
import KeelTestServer
import Testing

/// A task of the Django test app's `changes` resource: soft deletes, an `updated_since`
/// filter, and a Server-Sent Events stream at `/changes/tasks/stream`.
final class DjangoTask: Model {
    override class var urlRoot: String? { "/changes/tasks" }
    override class var wireFormat: WireFormat { .djangoREST }
}

/// A task of the Rails test app (`/tasks`): soft deletes and an `updated_since` scope.
final class RailsTask: Model {
    override class var urlRoot: String? { "/tasks" }
    override class var wireFormat: WireFormat {
        var format = WireFormat.rails
        format.root.singular = "task"
        return format
    }
}

/// Another client of a test server: it changes records behind the app's back.
///
/// Its requests may take minutes: a burst of a thousand saves in one request takes that
/// long on a machine whose cores other test suites are using.
struct OtherClient {
    let sync: RESTSync
    let collection: String
    let trailingSlash: Bool
    let root: String?

    static func django(_ server: TestServer) -> OtherClient {
        OtherClient(sync: RESTSync(baseURL: server.baseURL, timeout: .seconds(300)), collection: "/changes/tasks", trailingSlash: true, root: nil)
    }

    static func rails(_ server: RailsTestServer) -> OtherClient {
        OtherClient(sync: RESTSync(baseURL: server.baseURL, timeout: .seconds(300)), collection: "/tasks", trailingSlash: false, root: "task")
    }

    private func url(_ suffix: String = "") -> URL {
        URL(string: collection + suffix + (trailingSlash ? "/" : ""))!
    }

    private func body(_ attributes: Attributes) -> JSONValue {
        root.map { ["\($0)": .object(attributes)] } ?? .object(attributes)
    }

    /// Creates a task and returns its id.
    func create(_ title: String) async throws -> Int {
        let response = try await sync.perform(SyncRequest(method: .create, url: url(), body: body(["title": .string(title)])))
        return try #require(response.body?["id"]?.intValue)
    }

    func rename(_ id: Int, to title: String) async throws {
        _ = try await sync.perform(SyncRequest(method: .patch, url: url("/\(id)"), body: body(["title": .string(title)])))
    }

    func delete(_ id: Int) async throws {
        _ = try await sync.perform(SyncRequest(method: .delete, url: url("/\(id)")))
    }

    /// Posts to one of the collection's actions (`bulk`, `purge`).
    func post(_ action: String, _ attributes: Attributes = [:]) async throws {
        _ = try await sync.perform(SyncRequest(method: .create, url: url("/\(action)"), body: .object(attributes)))
    }
}

/// Waits, without a fixed sleep as the test's verdict, until `condition` holds, checking
/// every 20 milliseconds for at most `limit`; returns whether it held.
@MainActor
func eventually(within limit: Duration = .seconds(30), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return true
}
