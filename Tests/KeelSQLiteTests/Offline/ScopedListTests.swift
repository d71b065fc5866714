import Foundation
import Keel
import KeelSQLite
import Testing

/// A list URL such as `/users/7/todos` is stored in its collection (`/todos`), answered
/// offline from the records in its scope, and reconciled only within that scope.
struct ScopedListTests {
    /// A server that also lists each user's todos at `/users/:id/todos`.
    private final class UserTodosRemote: Sync {
        let server = SwitchableRemote()

        func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
            guard let user = Route("/users/:id/todos").parameters(in: request.path)?["id"] else {
                return try await server.perform(request)
            }
            var all = try await server.perform(SyncRequest(method: .read, url: url("/todos")))
            all.body = all.body?.arrayValue.map { list in .array(list.filter { $0["userId"] == .int(Int(user) ?? 0) }) }
            return all
        }
    }

    private func makeScopedCache(
        file: URL,
        remote: UserTodosRemote,
        sendsImmediately: Bool = true
    ) throws -> CachingSync {
        var configuration = CachingSync.Configuration()
        configuration.registerList("/users/:id/todos", in: "/todos", matching: ["userId": "id"])
        configuration.sendsImmediately = sendsImmediately
        return CachingSync(remote: remote, local: try SQLiteOfflineStore(fileURL: file), configuration: configuration)
    }

    private func seed(_ remote: UserTodosRemote, _ todos: [(String, Int)]) async throws {
        for (title, user) in todos {
            _ = try await remote.server.serverWrite(
                .create,
                "/todos",
                body: ["title": .string(title), "userId": .int(user)]
            )
        }
    }

    private func titles(_ path: String, _ cache: CachingSync) async throws -> [JSONValue?] {
        let todos = Collection<Model>(url: path, sync: cache)
        try await todos.fetch()
        return todos.models.map { $0["title"] }
    }

    @Test func aUsersListIsStoredAsTodosAndReadOfflineByItsScope() async throws {
        try await withTemporaryDirectory { directory in
            let remote = UserTodosRemote()
            try await seed(remote, [("A", 1), ("B", 1), ("C", 2)])
            let cache = try makeScopedCache(file: directory.appending(path: "cache.sqlite"), remote: remote)
            #expect(try await titles("/users/1/todos", cache) == ["A", "B"])
            #expect(try await titles("/users/2/todos", cache) == ["C"])
            #expect(try await cache.local.record("3", in: "/todos")?["title"] == "C")

            _ = try await remote.server.serverWrite(.patch, "/todos/1", body: ["title": "A, edited"])
            let first = Model(["id": 1])
            first.sync = cache
            first.urlRoot = "/todos"
            try await first.fetch()
            remote.server.isOnline = false
            _ = try await cache.perform(
                SyncRequest(method: .create, url: url("/todos"), body: ["title": "D", "userId": 1])
            )

            #expect(try await titles("/users/1/todos", cache) == ["A, edited", "B", "D"])
            #expect(try await titles("/users/2/todos", cache) == ["C"])
        }
    }

    @Test func aCompleteListDeletesOnlyTheOrphansInItsScope() async throws {
        try await withTemporaryDirectory { directory in
            let remote = UserTodosRemote()
            try await seed(remote, [("A", 1), ("B", 1), ("C", 2)])
            let file = directory.appending(path: "cache.sqlite")
            let cache = try makeScopedCache(file: file, remote: remote, sendsImmediately: false)
            _ = try await titles("/users/1/todos", cache)
            _ = try await titles("/users/2/todos", cache)
            _ = try await cache.perform(SyncRequest(method: .patch, url: url("/todos/2"), body: ["title": "B, mine"]))
            _ = try await remote.server.serverWrite(.delete, "/todos/1")
            _ = try await remote.server.serverWrite(.delete, "/todos/2")
            _ = try await remote.server.serverWrite(.delete, "/todos/3")

            #expect(try await titles("/users/1/todos", cache) == ["B, mine"])
            let reopened = try SQLiteOfflineStore(fileURL: file)
            #expect(try await reopened.record("1", in: "/todos") == nil)
            #expect(try await reopened.record("2", in: "/todos")?["title"] == "B, mine")
            #expect(try await reopened.record("3", in: "/todos")?["title"] == "C")
        }
    }

    @Test func aFilteredListDeletesNothing() async throws {
        try await withTemporaryDirectory { directory in
            let remote = UserTodosRemote()
            try await seed(remote, [("A", 1), ("B", 1)])
            let cache = try makeScopedCache(file: directory.appending(path: "cache.sqlite"), remote: remote)
            _ = try await titles("/users/1/todos", cache)
            _ = try await remote.server.serverWrite(.delete, "/todos/1")
            let filtered = Collection<Model>(url: "/users/1/todos", sync: cache)
            try await filtered.fetch(options: SyncOptions(query: ["page": "1"]))
            #expect(try await cache.local.record("1", in: "/todos") != nil)
        }
    }

    @Test func theLastRegisteredListForAURLWins() async throws {
        try await withTemporaryDirectory { directory in
            let remote = UserTodosRemote()
            try await seed(remote, [("A", 1), ("B", 1)])
            var configuration = CachingSync.Configuration()
            configuration.registerList("/users/:id/todos", in: "/todos", matching: ["userId": "id"])
            configuration.registerList("/users/:id/todos", in: "/todos") { record, _ in record["title"] == "B" }
            let local = try SQLiteOfflineStore(fileURL: directory.appending(path: "cache.sqlite"))
            let cache = CachingSync(remote: remote, local: local, configuration: configuration)
            _ = try await titles("/users/1/todos", cache)
            remote.server.isOnline = false
            #expect(try await titles("/users/1/todos", cache) == ["B"])
        }
    }
}

/// A scoped list read as JSON:API documents is stored as resource objects in its collection
/// and answered offline as a document of the resources in its scope.
@MainActor
struct JSONAPIScopedListTests {
    typealias Comment = JSONAPIOfflineModels.Comment

    private func comment(_ id: String, _ body: String, article: String) -> JSONValue {
        JSONAPIOfflineModels.resource(
            "comments",
            id,
            ["body": .string(body)],
            relationships: ["article": JSONAPIOfflineModels.link("articles", article)]
        )
    }

    private func bodies(_ path: String, _ cache: CachingSync, readPolicy: ReadPolicy) async throws -> [JSONValue?] {
        let comments = Collection<Comment>(url: path, sync: cache)
        try await comments.fetch(readPolicy: readPolicy)
        return comments.pluck("body")
    }

    @Test func aNestedJSONAPIListIsStoredInItsCollectionAndReadOfflineByItsScope() async throws {
        let remote = JSONAPIRemote()
        remote.serve(
            ["data": [comment("31", "First!", article: "1"), comment("32", "Second", article: "1")]],
            at: "/articles/1/comments"
        )
        remote.serve(["data": [comment("33", "Elsewhere", article: "2")]], at: "/articles/2/comments")
        var configuration = CachingSync.Configuration()
        configuration.registerList("/articles/:id/comments", in: "/comments", matching: ["article": "id"])
        let cache = CachingSync(remote: remote, local: try SQLiteOfflineStore.inMemory(), configuration: configuration)

        #expect(try await bodies("/articles/1/comments", cache, readPolicy: .remoteFirst) == ["First!", "Second"])
        #expect(try await bodies("/articles/2/comments", cache, readPolicy: .remoteFirst) == ["Elsewhere"])
        remote.isOnline = false

        #expect(try await cache.local.record("33", in: "/comments")?["type"] == "comments")
        #expect(try await bodies("/articles/1/comments", cache, readPolicy: .localOnly) == ["First!", "Second"])
        #expect(try await bodies("/articles/2/comments", cache, readPolicy: .remoteFirst) == ["Elsewhere"])
    }
}
