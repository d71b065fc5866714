import Foundation
import Keel
import KeelSQLite
import Testing

/// Offline edits and deletes of JSON:API records the cache read from the server: queued,
/// merged into the stored resource object, replayed, and checked for conflicts by the
/// version in the resource's `attributes`.
@MainActor
struct JSONAPIOfflineWriteTests {
    typealias Article = JSONAPIOfflineModels.Article

    /// A cache that read the list document online, then lost the network, and the articles
    /// it reads offline.
    private func offlineArticles(
        configure: (inout CachingSync.Configuration) -> Void = { _ in }
    ) async throws -> (CachingSync, JSONAPIRemote, Collection<Article>) {
        let remote = JSONAPIRemote()
        remote.serve(JSONAPIOfflineModels.listDocument, at: "/articles")
        var configuration = CachingSync.Configuration()
        configuration.sendsImmediately = false
        configuration.register(Article.self)
        configure(&configuration)
        let cache = CachingSync(remote: remote, local: try SQLiteOfflineStore.inMemory(), configuration: configuration)
        try await Collection<Article>(url: "/articles", sync: cache).fetch()
        remote.isOnline = false
        let articles = Collection<Article>(url: "/articles", sync: cache)
        try await articles.fetch(readPolicy: .localOnly)
        return (cache, remote, articles)
    }

    @Test func anOfflinePatchOfAFetchedRecordMergesIntoItsStoredAttributes() async throws {
        let (cache, _, articles) = try await offlineArticles()
        let article = try #require(articles.get(1))

        try await article.save(["title": "Engines, revised"], patch: true)

        #expect(article.syncState == .pending)
        let stored = try #require(try await cache.local.record("1", in: "/articles"))
        #expect(stored["attributes"] == ["title": "Engines, revised", "body": "Steam", "version": 3])
        #expect(stored["relationships"]?["author"] == JSONAPIOfflineModels.link("authors", "9"))
        let queued = try await cache.queuedChanges()
        #expect(queued.map(\.method) == [.patch])
        #expect(queued.first?.body?["attributes"] == ["title": "Engines, revised"])

        let reread = Collection<Article>(url: "/articles", sync: cache)
        try await reread.fetch(readPolicy: .localOnly)
        #expect(reread.get(1)?["body"] == "Steam" && reread.get(1)?["title"] == "Engines, revised")
    }

    @Test func anOfflineEditAndDeleteOfFetchedRecordsAreReplayedOneRequestEach() async throws {
        let (cache, remote, articles) = try await offlineArticles()
        try await #require(articles.get(1)).save(["title": "Engines, revised"], patch: true)
        try await #require(articles.get(2)).destroy()
        #expect(try await cache.queuedChanges().map(\.method) == [.patch, .delete])

        remote.isOnline = true
        let report = try await cache.replay()

        #expect(report.sent.count == 2 && report.failures.isEmpty && report.remaining == 0)
        let writes = remote.received.filter { $0.method != .read }
        #expect(writes.map(\.method) == [.patch, .delete])
        #expect(writes.map { $0.url.path() } == ["/articles/1", "/articles/2"])
        #expect(writes.first?.body?["data"]?["attributes"] == ["title": "Engines, revised"])
        #expect(try await cache.local.record("1", in: "/articles")?["attributes"]?["title"] == "Engines, revised")
        #expect(try await cache.local.record("2", in: "/articles") == nil)
    }

    @Test func aServerVersionInTheResourceAttributesFindsAConflict() async throws {
        let (cache, remote, articles) = try await offlineArticles { configuration in
            configuration.register(Article.self, versionCheck: .attribute("version"), conflictPolicy: .serverWins)
        }
        try await #require(articles.get(1)).save(["title": "Mine"], patch: true)
        #expect(try await cache.queuedChanges().first?.baseVersion == "3")
        remote.serve(
            ["data": JSONAPIOfflineModels.resource("articles", "1", ["title": "Theirs", "body": "Steam", "version": 4])],
            at: "/articles/1"
        )

        remote.isOnline = true
        let report = try await cache.replay()

        #expect(report.resolved.map(\.change.recordID) == ["1"])
        #expect(remote.received.filter { $0.method != .read }.isEmpty)
        #expect(try await cache.local.record("1", in: "/articles")?["attributes"]?["title"] == "Theirs")
        #expect(try await cache.queuedChanges().isEmpty)
    }

    @Test func anUnchangedServerVersionLetsTheEditGo() async throws {
        let (cache, remote, articles) = try await offlineArticles { configuration in
            configuration.register(Article.self, versionCheck: .attribute("version"))
        }
        try await #require(articles.get(1)).save(["title": "Mine"], patch: true)
        remote.serve(["data": JSONAPIOfflineModels.listDocument["data"]?[0] ?? .null], at: "/articles/1")

        remote.isOnline = true
        let report = try await cache.replay()

        #expect(report.sent.count == 1 && report.resolved.isEmpty)
        #expect(remote.received.last?.method == .patch)
    }
}
