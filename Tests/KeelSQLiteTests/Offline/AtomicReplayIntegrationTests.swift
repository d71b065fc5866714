import Foundation
import Keel
import KeelSQLite
import KeelTestServer
import Testing

/// A queue of JSON:API changes replayed as one Atomic Operations request against the test
/// server's drf-json-api-atomic-operations endpoint (`POST /jsonapi/operations`).
struct AtomicReplayIntegrationTests {
    typealias Author = AtomicReplayModels.Author
    typealias Article = AtomicReplayModels.Article
    typealias Comment = AtomicReplayModels.Comment

    private func server() async throws -> TestServer {
        try await TestServer.dedicated(to: "atomic-replay")
    }

    @Test func aParentItsUpdateAndALinkedChildQueuedOfflineGoInOneRequestAndGetServerIDs() async throws {
        try await withTemporaryDirectory { directory in
            let server = try await server()
            let remote = PathRecordingSync(RESTSync(baseURL: server.baseURL, timeout: .seconds(60)))
            let cache = try AtomicReplayModels.cache(remote: remote, file: directory.appending(path: "cache.sqlite"))
            let map = IdentityMap()
            let authors = Collection<Author>(
                factory: map.factory(for: Author.self, collection: "/jsonapi/authors"),
                url: "/jsonapi/authors",
                sync: cache
            )
            let articles = Collection<Article>(
                factory: map.factory(for: Article.self, collection: "/jsonapi/articles"),
                url: "/jsonapi/articles",
                sync: cache
            )
            let comments = Collection<Comment>(
                factory: map.factory(for: Comment.self, collection: "/jsonapi/comments"),
                url: "/jsonapi/comments",
                sync: cache
            )

            let author = try await authors.create(["name": .string("Ann-\(UUID())")])
            let article = try await articles.create(["title": "Draft", "authorId": author.id ?? nil])
            article["title"] = "Published"
            try await article.save()
            let comment = try await comments.create([
                "body": "First!", "articleId": article.id ?? nil, "authorId": author.id ?? nil,
            ])
            #expect([author.id, article.id, comment.id] == ["local-1", "local-2", "local-3"])
            #expect(try await cache.queuedChanges().count == 4)
            #expect(remote.received.isEmpty)

            let report = try await cache.replay()
            map.apply(report)

            #expect(remote.received == ["/jsonapi/operations"])
            #expect(report.sent.count == 4 && report.sentAtomically == 4)
            #expect(report.remaining == 0 && report.failures.isEmpty && report.stoppedBy == nil)
            let authorID = try #require(author.id?.intValue)
            let articleID = try #require(article.id?.intValue)
            let commentID = try #require(comment.id?.intValue)
            #expect(article["authorId"] == .int(authorID))
            #expect(comment["articleId"] == .int(articleID) && comment["authorId"] == .int(authorID))
            #expect(article["title"] == "Published")
            #expect([author, article, comment].allSatisfy { $0.syncState == .synced })

            let stored = try #require(
                try await AtomicReplayModels.serverResource("/jsonapi/articles/\(articleID)", at: server.baseURL)
            )
            #expect(stored["attributes"]?["title"] == "Published")
            #expect(stored["relationships"]?["author"]?["data"]?["id"] == .string("\(authorID)"))
            let storedComment = try await AtomicReplayModels.serverResource(
                "/jsonapi/comments/\(commentID)",
                at: server.baseURL
            )
            #expect(storedComment?["relationships"]?["article"]?["data"]?["id"] == .string("\(articleID)"))

            let local = try await cache.local.record("\(commentID)", in: "/jsonapi/comments")
            #expect(local?["relationships"]?["article"]?["data"]?["id"] == .string("\(articleID)"))
            #expect(try await cache.local.record("local-3", in: "/jsonapi/comments") == nil)
        }
    }

    @Test func aBatchTheServerRefusesKeepsEveryChangeQueuedAndEveryLocalRecordAsItWas() async throws {
        try await withTemporaryDirectory { directory in
            let server = try await server()
            let remote = PathRecordingSync(RESTSync(baseURL: server.baseURL, timeout: .seconds(60)))
            let cache = try AtomicReplayModels.cache(remote: remote, file: directory.appending(path: "cache.sqlite"))
            let name = "Refused-\(UUID())"
            let author = Author(["name": .string(name)])
            author.sync = cache
            try await author.save()
            let article = Article(["title": "", "authorId": author.id ?? nil])
            article.sync = cache
            try await article.save()
            let before = try await cache.local.record("local-2", in: "/jsonapi/articles")

            let report = try await cache.replay()

            #expect(remote.received == ["/jsonapi/operations"])
            #expect(report.sent.isEmpty && report.sentAtomically == 0)
            // The package answers with its first error only, without a pointer: batch-wide.
            #expect(report.failures.count == 2)
            #expect(report.failures.allSatisfy { $0.error.status == 400 })
            let queued = try await cache.queuedChanges()
            #expect(queued.map(\.recordID) == ["local-1", "local-2"])
            #expect(queued.allSatisfy { if case .failed = $0.state { true } else { false } })
            #expect(
                try await cache.local.record("local-1", in: "/jsonapi/authors")?["attributes"]?["name"] == .string(name)
            )
            #expect(try await cache.local.record("local-2", in: "/jsonapi/articles") == before)
            #expect(try await !AtomicReplayModels.serverAuthorNames(at: server.baseURL).contains(name))
        }
    }

    @Test func aServerWithoutTheExtensionGetsOneRequestPerChangeAndTheReportSaysSo() async throws {
        try await withTemporaryDirectory { directory in
            let server = try await server()
            let remote = PathRecordingSync(RESTSync(baseURL: server.baseURL, timeout: .seconds(60)))
            let cache = try AtomicReplayModels.cache(
                remote: remote,
                file: directory.appending(path: "cache.sqlite"),
                atomic: AtomicOperations(endpoint: URL(string: "/jsonapi/no-operations"))
            )
            let author = Author(["name": .string("Fallback-\(UUID())")])
            author.sync = cache
            try await author.save()
            let article = Article(["title": "One by one", "authorId": author.id ?? nil])
            article.sync = cache
            try await article.save()

            let report = try await cache.replay()

            #expect(report.atomicFallback?.status == 404)
            #expect(remote.received == ["/jsonapi/no-operations", "/jsonapi/authors", "/jsonapi/articles"])
            #expect(report.sent.count == 2 && report.sentAtomically == 0 && report.remaining == 0)
            let authorID = try #require(report.sent.first?.response.body?["data"]?["id"]?.stringValue)
            let articleID = try #require(report.sent.last?.response.body?["data"]?["id"]?.stringValue)
            let stored = try await AtomicReplayModels.serverResource(
                "/jsonapi/articles/\(articleID)",
                at: server.baseURL
            )
            #expect(stored?["relationships"]?["author"]?["data"]?["id"] == .string(authorID))
        }
    }
}
