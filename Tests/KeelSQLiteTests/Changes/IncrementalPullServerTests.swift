import Foundation
import Keel
import KeelSQLite
import KeelTestServer
import Testing

/// Incremental pulls against the Django test app's `updated_since` filter with soft deletes:
/// another client's change and deletion reach the store, the cursor survives a restart in
/// the SQLite offline store, and an expired cursor falls back to a full fetch.
@Suite(.serialized)
@MainActor
struct IncrementalPullDjangoTests {
    private func server() async throws -> TestServer { try await TestServer.dedicated(to: "incremental-pull") }

    @Test func anotherClientsChangeAndDeletionArriveByPull() async throws {
        let server = try await server()
        let other = OtherClient.django(server)
        let kept = try await other.create("Kept")
        let doomed = try await other.create("Doomed")
        let store = Store(sync: RESTSync(baseURL: server.baseURL))
        let first = try await store.pull(DjangoTask.self, using: .djangoREST)
        #expect(first.wasFullFetch)
        let all = store.query(DjangoTask.self)
        #expect(store.peek(DjangoTask.self, id: .int(doomed)) != nil)
        var removed: [JSONValue] = []
        let subscription = all.on("remove") { event in removed.append(event.model?.id ?? nil) }
        defer { subscription.cancel() }

        try await other.rename(kept, to: "Renamed")
        try await other.delete(doomed)
        let second = try await store.pull(DjangoTask.self, using: .djangoREST)

        #expect(!second.wasFullFetch)
        #expect(second.changes.map(\.kind) == [.updated, .deleted])
        #expect(store.peek(DjangoTask.self, id: .int(kept))?["title"] == "Renamed")
        #expect(store.peek(DjangoTask.self, id: .int(doomed)) == nil)
        #expect(removed == [.int(doomed)])
        #expect(try await store.pull(DjangoTask.self, using: .djangoREST).changes.isEmpty)
    }

    @Test func theCursorIsKeptWithTheLocalCopyAcrossARestart() async throws {
        let server = try await server()
        let other = OtherClient.django(server)
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "cache.sqlite")
            let id = try await other.create("Before")
            do {
                let cache = CachingSync(remote: RESTSync(baseURL: server.baseURL), local: try SQLiteOfflineStore(fileURL: file))
                #expect(try await Store(sync: cache).pull(DjangoTask.self, using: .djangoREST).wasFullFetch)
            }
            try await other.rename(id, to: "While closed")

            let cache = CachingSync(remote: RESTSync(baseURL: server.baseURL), local: try SQLiteOfflineStore(fileURL: file))
            let store = Store(sync: cache)
            let report = try await store.pull(DjangoTask.self, using: .djangoREST)

            #expect(!report.wasFullFetch)
            #expect(report.changes.map(\.id) == [.int(id)])
            #expect(try await cache.local.record("\(id)", in: "/changes/tasks")?["title"] == "While closed")
        }
    }

    @Test func anExpiredCursorFallsBackToAFullFetchThatReconciles() async throws {
        let server = try await server()
        let other = OtherClient.django(server)
        let doomed = try await other.create("Purged")
        let store = Store(sync: RESTSync(baseURL: server.baseURL))
        try await store.pull(DjangoTask.self, using: .djangoREST)
        #expect(store.peek(DjangoTask.self, id: .int(doomed)) != nil)

        try await other.delete(doomed)
        try await other.post("purge")
        let report = try await store.pull(DjangoTask.self, using: .djangoREST)

        #expect(report.wasFullFetch)
        #expect(report.changes.contains(RemoteChange(.deleted, id: .int(doomed))))
        #expect(store.peek(DjangoTask.self, id: .int(doomed)) == nil)
    }
}

/// Incremental pulls against the Rails test app's `updated_since` scope with soft deletes.
@MainActor
struct IncrementalPullRailsTests {
    @Test func anotherClientsChangeAndDeletionArriveByPull() async throws {
        let server = try await RailsTestServer.dedicated(to: "incremental-pull")
        let other = OtherClient.rails(server)
        let kept = try await other.create("Kept")
        let doomed = try await other.create("Doomed")
        let store = Store(sync: RESTSync(baseURL: server.baseURL))
        #expect(try await store.pull(RailsTask.self, using: .rails).wasFullFetch)

        try await other.rename(kept, to: "Renamed")
        try await other.delete(doomed)
        let report = try await store.pull(RailsTask.self, using: .rails)

        #expect(!report.wasFullFetch)
        #expect(Set(report.changes.map(\.id)) == [.int(kept), .int(doomed)])
        #expect(store.peek(RailsTask.self, id: .int(kept))?["title"] == "Renamed")
        #expect(store.peek(RailsTask.self, id: .int(doomed)) == nil)
    }
}
