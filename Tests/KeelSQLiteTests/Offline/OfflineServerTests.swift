import Foundation
import Keel
import KeelSQLite
import KeelTestServer
import Testing

/// Offline scenarios against the real Django test server, which the tests stop (the
/// network is gone) and start again (it is back).
@Suite(.serialized)
struct OfflineServerTests {
    private func makeCache(_ server: RestartableServer, file: URL, policy: ConflictPolicy = .serverWins) throws
        -> CachingSync
    {
        var configuration = CachingSync.Configuration()
        configuration.register(Author.self)
        configuration.register(Book.self)
        configuration.register(Article.self, versionCheck: .attribute("updated_at"), conflictPolicy: policy)
        // A stopped server's port refuses connections at once (it is held, not listened on), so
        // the timeout bounds only a slow answer: on a loaded machine, 5 s failed a first create.
        return CachingSync(
            remote: RESTSync(baseURL: server.baseURL, timeout: .seconds(60)),
            local: try SQLiteOfflineStore(fileURL: file),
            configuration: configuration
        )
    }

    @Test func aParentAndChildCreatedOfflineReachTheServerWithServerIDsEverywhere() async throws {
        try await withTemporaryDirectory { directory in
            let server = try await RestartableServer(directory: directory)
            let cache = try makeCache(server, file: directory.appending(path: "cache.sqlite"))
            let map = IdentityMap()
            let authors = Collection<Author>(
                factory: map.factory(for: Author.self, collection: "/drf/authors"),
                url: "/drf/authors",
                sync: cache
            )
            let books = Collection<Book>(
                factory: map.factory(for: Book.self, collection: "/drf/books"),
                url: "/drf/books",
                sync: cache
            )

            await server.stop()
            let author = try await authors.create(["name": "Ursula"])
            let book = try await books.create(["title": "The Dispossessed", "author": author.id ?? nil])
            #expect(author.id == "local-1")
            #expect(book["author"] == "local-1")
            #expect(author.syncState == .pending && book.syncState == .pending)

            try await server.start()
            let report = try await cache.replay()
            map.apply(report)
            #expect(report.sent.count == 2)
            let authorID = try #require(author.id?.intValue)
            #expect(book.id?.intValue != nil)
            #expect(book["author"] == .int(authorID))
            #expect(author.syncState == .synced && book.syncState == .synced)

            let serverBooks = try await server.send(.read, "/drf/books/")
            #expect(serverBooks.body?[0]?["author"] == .int(authorID))
            #expect(serverBooks.body?[0]?["title"] == "The Dispossessed")
            let counts = try await server.creates()
            #expect(counts["/drf/authors/"]?.creates == 1)
            #expect(counts["/drf/books/"]?.creates == 1)

            try await books.fetch(readPolicy: .localOnly)
            #expect(books.first === book)
            #expect(book["author"] == .int(authorID))
        }
    }

    @Test func writesQueuedWhileTheServerIsDownAreSentInOrderWhenItIsBack() async throws {
        try await withTemporaryDirectory { directory in
            let server = try await RestartableServer(directory: directory)
            let cache = try makeCache(server, file: directory.appending(path: "cache.sqlite"))
            let authors = Collection<Author>(url: "/drf/authors", sync: cache)
            let kept = try await authors.create(["name": "Kept"])
            let removed = try await authors.create(["name": "Removed"])
            #expect(kept.syncState == .synced)
            try await authors.fetch()

            await server.stop()
            try await kept.save(["name": "Kept, renamed"])
            try await removed.destroy()
            _ = try await authors.create(["name": "New"])
            try await authors.fetch()
            #expect(authors.models.map { $0["name"] } == ["Kept, renamed", "New"])

            try await server.start()
            let report = try await cache.replay()
            #expect(report.sent.count == 3 && report.remaining == 0)
            let names = try await server.send(.read, "/drf/authors/").body?.arrayValue?.map { $0["name"] }
            #expect(names == ["Kept, renamed", "New"])
            try await authors.fetch()
            #expect(authors.models.map { $0["name"] } == ["Kept, renamed", "New"])
        }
    }

    enum Policy: String, CaseIterable, Sendable {
        case serverWins, clientWins, resolver, manual

        var conflictPolicy: ConflictPolicy {
            switch self {
            case .serverWins: .serverWins
            case .clientWins: .clientWins
            case .manual: .manual
            case .resolver:
                .resolve { conflict in
                    var merged = conflict.server ?? [:]
                    merged["title"] = conflict.local?["title"]
                    return .merged(merged)
                }
            }
        }
    }

    @Test(arguments: Policy.allCases)
    func aConflictingEditOnBothSidesEndsAsThePolicyDecides(_ policy: Policy) async throws {
        try await withTemporaryDirectory { directory in
            let server = try await RestartableServer(directory: directory)
            let cache = try makeCache(
                server,
                file: directory.appending(path: "cache.sqlite"),
                policy: policy.conflictPolicy
            )
            let articles = Collection<Article>(url: "/drf/articles", sync: cache)
            let article = try await articles.create(["title": "Draft", "body": "v1"])
            let id = try #require(article.id?.intValue)

            await server.stop()
            try await article.save(["title": "Client title"], patch: true)
            #expect(article.syncState == .pending)

            try await server.start()
            _ = try await server.send(.patch, "/drf/articles/\(id)/", body: ["body": "Server body"])
            let map = IdentityMap()
            try map.register(article, collection: "/drf/articles")
            let report = try await cache.replay()
            map.apply(report)

            let serverRecord = try await server.send(.read, "/drf/articles/\(id)/").body
            let local = try await cache.local.record(String(id), in: "/drf/articles")
            switch policy {
            case .serverWins:
                #expect(serverRecord?["title"] == "Draft" && serverRecord?["body"] == "Server body")
                #expect(local?["title"] == "Draft" && local?["body"] == "Server body")
                #expect(article.syncState == .synced)
            case .clientWins:
                #expect(serverRecord?["title"] == "Client title" && serverRecord?["body"] == "Server body")
                #expect(article.syncState == .synced)
            case .resolver:
                #expect(serverRecord?["title"] == "Client title" && serverRecord?["body"] == "Server body")
                #expect(local?["title"] == "Client title" && local?["body"] == "Server body")
            case .manual:
                #expect(report.conflicts.count == 1)
                #expect(article.syncState == .conflict)
                #expect(serverRecord?["title"] == "Draft")
                let conflict = try #require(try await cache.conflicts().first)
                #expect(conflict.server?["body"] == "Server body" && conflict.local?["title"] == "Client title")
                try await cache.resolve(conflict, with: .useClient)
                let resolved = try await server.send(.read, "/drf/articles/\(id)/").body
                #expect(resolved?["title"] == "Client title")
            }
            #expect(try await cache.queuedChanges().isEmpty)
        }
    }
}

/// Conflicts found by ETag, against the test server's `/documents` (Django's `condition`
/// decorator: a new ETag per PUT).
struct ETagConflictTests {
    private func makeCache(_ rest: RESTSync) throws -> CachingSync {
        var configuration = CachingSync.Configuration()
        configuration.sendsImmediately = false
        configuration.versionChecks["/documents"] = .etag
        configuration.conflictPolicies["/documents"] = .manual
        return CachingSync(remote: rest, local: try SQLiteOfflineStore.inMemory(), configuration: configuration)
    }

    @Test func aDocumentPutOnTheServerSinceItWasReadIsAConflict() async throws {
        let server = try await TestServer.shared
        let rest = RESTSync(baseURL: server.baseURL)
        let path = "/documents/offline-\(UUID().uuidString.prefix(8))"
        _ = try await rest.perform(SyncRequest(method: .update, url: url(path), body: ["title": "v1"]))
        let cache = try makeCache(rest)
        _ = try await cache.perform(SyncRequest(method: .read, url: url(path)))
        _ = try await cache.perform(SyncRequest(method: .update, url: url(path), body: ["title": "Mine"]))
        _ = try await rest.perform(SyncRequest(method: .update, url: url(path), body: ["title": "Theirs"]))

        let report = try await cache.replay()
        let conflict = try #require(report.conflicts.first)
        #expect(conflict.server?["title"] == "Theirs" && conflict.local?["title"] == "Mine")
        #expect(try await rest.perform(SyncRequest(method: .read, url: url(path))).body?["title"] == "Theirs")

        try await cache.resolve(conflict, with: .useClient)
        #expect(try await rest.perform(SyncRequest(method: .read, url: url(path))).body?["title"] == "Mine")
        #expect(try await cache.queuedChanges().isEmpty)
    }

    @Test func anUnchangedETagSendsTheChangeWithIfMatch() async throws {
        let server = try await TestServer.shared
        let rest = RESTSync(baseURL: server.baseURL)
        let path = "/documents/offline-\(UUID().uuidString.prefix(8))"
        _ = try await rest.perform(SyncRequest(method: .update, url: url(path), body: ["title": "v1"]))
        let cache = try makeCache(rest)
        _ = try await cache.perform(SyncRequest(method: .read, url: url(path)))
        _ = try await cache.perform(SyncRequest(method: .update, url: url(path), body: ["title": "Mine"]))

        let report = try await cache.replay()
        #expect(report.conflicts.isEmpty && report.sent.count == 1)
        #expect(report.sent.first.map { _ in true } == true)
        #expect(try await rest.perform(SyncRequest(method: .read, url: url(path))).body?["title"] == "Mine")
    }
}
