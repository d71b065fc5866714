import Foundation
import Keel
import KeelSQLite
import KeelTestServer
import Testing

/// The test server (gunicorn, its database kept across restarts) killed with SIGKILL, master
/// and worker at once, *while it processes* a replay: held by its test-only hold
/// (``ServerHold``) inside the atomic batch's transaction, after it applied the batch's first
/// operations, or inside the second of three one-by-one writes. SQLite rolls the open
/// transaction back when the restarted server opens the file, so the server holds nothing of
/// what it was processing; the client keeps it queued, and the resend lands it once.
///
/// Killing master and worker together models the machine or the container going away (an
/// OOM kill of the container, a node lost, a deploy that kills): a worker killed alone is
/// replaced by gunicorn's master, which changes nothing for the client, whose connection
/// breaks either way. Linux only (``RestartableServer/crash()`` reads `/proc`).
#if os(Linux)
    struct AtomicReplayMidBatchKillTests {
        typealias Author = AtomicReplayModels.Author
        typealias Article = AtomicReplayModels.Article
        typealias Comment = AtomicReplayModels.Comment

        @Test func aServerKilledMidBatchCommitsNothingAndTheResendLandsTheWholeBatchOnce() async throws {
            try await withTemporaryDirectory { directory in
                let hold = ServerHold(directory: directory)
                let server = try await RestartableServer(directory: directory, environment: hold.environment)
                let tag = UUID().uuidString.prefix(8)
                let api = RESTSync(baseURL: server.baseURL, timeout: .seconds(60))
                var seeded: [Author] = []
                for name in ["Edited-\(tag)", "Deleted-\(tag)"] {
                    let author = Author(["name": .string(name)])
                    author.sync = api
                    try await author.save()
                    seeded.append(author)
                }
                let cache = try AtomicReplayModels.cache(remote: api, file: directory.appending(path: "cache.sqlite"))
                let authors = Collection<Author>(url: "/jsonapi/authors", sync: cache)
                try await authors.fetch()
                try await #require(authors.get(seeded[0].id ?? nil)).save(
                    ["name": .string("Renamed-\(tag)")],
                    patch: true
                )
                try await #require(authors.get(seeded[1].id ?? nil)).destroy()
                var created: [Author] = []
                for name in ["New-1-\(tag)", "New-2-\(tag)"] {
                    let author = Author(["name": .string(name)])
                    author.sync = cache
                    try await author.save()
                    created.append(author)
                }
                // The server holds before it saves the article: the edit, the delete and the
                // two authors are applied in the batch's transaction, and nothing is committed.
                let title = "\(hold.marker) article"
                let article = Article(["title": .string(title), "authorId": created[0].id ?? nil])
                article.sync = cache
                try await article.save()
                let comment = Comment([
                    "body": "After the hold", "articleId": article.id ?? nil, "authorId": created[1].id ?? nil,
                ])
                comment.sync = cache
                try await comment.save()
                let queued = try await cache.queuedChanges()
                #expect(queued.map(\.method) == [.patch, .delete, .create, .create, .create, .create])
                let records: [(String, String)] =
                    (seeded + created).map { ("/jsonapi/authors", key($0)) }
                    + [("/jsonapi/articles", key(article)), ("/jsonapi/comments", key(comment))]
                let before = try await localRecords(records, in: cache)

                let replaying = Task { try await cache.replay() }
                #expect(try await hold.held() == title)
                await server.crash()
                let interrupted = try await replaying.value

                #expect(interrupted.sent.isEmpty && interrupted.sentAtomically == 0 && interrupted.failures.isEmpty)
                #expect(
                    isTransportError(interrupted.stoppedBy),
                    "stopped by \(String(describing: interrupted.stoppedBy))"
                )
                #expect(interrupted.remaining == queued.count)
                #expect(try await cache.queuedChanges() == queued)
                #expect(try await localRecords(records, in: cache) == before)

                try await server.start()
                // SQLite rolled the killed transaction back: the server holds nothing of the batch.
                #expect(
                    try await AtomicReplayModels.serverAuthorNames(at: server.baseURL).sorted()
                        == ["Deleted-\(tag)", "Edited-\(tag)"]
                )
                #expect(try await serverList("/jsonapi/articles", at: server.baseURL).isEmpty)
                #expect(try await serverList("/jsonapi/comments", at: server.baseURL).isEmpty)

                let report = try await cache.replay()

                #expect(report.sentAtomically == queued.count && report.sent.count == queued.count)
                #expect(report.remaining == 0 && report.failures.isEmpty && report.stoppedBy == nil)
                #expect((try await server.creates()["/jsonapi/operations"]?.replays ?? 0) == 0)
                #expect(
                    try await AtomicReplayModels.serverAuthorNames(at: server.baseURL).sorted()
                        == ["New-1-\(tag)", "New-2-\(tag)", "Renamed-\(tag)"]
                )
                let ids = serverIDs(of: report)
                let author1 = try #require(ids[key(created[0])])
                let author2 = try #require(ids[key(created[1])])
                let articleID = try #require(ids[key(article)])
                let commentID = try #require(ids[key(comment)])
                let articles = try await serverList("/jsonapi/articles", at: server.baseURL)
                #expect(articles.map { $0["id"] } == [.string(articleID)])
                #expect(articles.first?["attributes"]?["title"] == .string(title))
                #expect(articles.first?["relationships"]?["author"]?["data"]?["id"] == .string(author1))
                let comments = try await serverList("/jsonapi/comments", at: server.baseURL)
                #expect(comments.map { $0["id"] } == [.string(commentID)])
                #expect(comments.first?["relationships"]?["article"]?["data"]?["id"] == .string(articleID))
                #expect(comments.first?["relationships"]?["author"]?["data"]?["id"] == .string(author2))

                for (collection, temporary) in records.dropFirst(2) {
                    #expect(
                        try await cache.local.record(temporary, in: collection) == nil,
                        "\(temporary) is still local"
                    )
                }
                #expect(
                    try await cache.local.record(author1, in: "/jsonapi/authors")?["attributes"]?["name"]
                        == .string("New-1-\(tag)")
                )
                let localArticle = try await cache.local.record(articleID, in: "/jsonapi/articles")
                #expect(localArticle?["relationships"]?["author"]?["data"]?["id"] == .string(author1))
                let localComment = try await cache.local.record(commentID, in: "/jsonapi/comments")
                #expect(localComment?["relationships"]?["article"]?["data"]?["id"] == .string(articleID))
                #expect(try await cache.local.record(key(seeded[1]), in: "/jsonapi/authors") == nil)
                await server.stop()
            }
        }

        @Test func aServerKilledWhileItSavesTheSecondOfThreeWritesKeepsTheRestQueuedAndTheResendCreatesEachOnce()
            async throws
        {
            try await withTemporaryDirectory { directory in
                let hold = ServerHold(directory: directory)
                let server = try await RestartableServer(directory: directory, environment: hold.environment)
                let api = RESTSync(baseURL: server.baseURL, timeout: .seconds(60))
                let cache = try AtomicReplayModels.cache(
                    remote: api,
                    file: directory.appending(path: "cache.sqlite"),
                    atomic: nil
                )
                let tag = UUID().uuidString.prefix(8)
                let names = ["First-\(tag)", "\(hold.marker) second", "Third-\(tag)"]
                var authors: [Author] = []
                for name in names {
                    let author = Author(["name": .string(name)])
                    author.sync = cache
                    try await author.save()
                    authors.append(author)
                }
                let queued = try await cache.queuedChanges()
                let temporary = authors.map(key)

                let replaying = Task { try await cache.replay() }
                #expect(try await hold.held() == names[1])
                await server.crash()
                let interrupted = try await replaying.value

                #expect(interrupted.sent.map(\.change) == [queued[0]] && interrupted.failures.isEmpty)
                #expect(
                    isTransportError(interrupted.stoppedBy),
                    "stopped by \(String(describing: interrupted.stoppedBy))"
                )
                #expect(try await cache.queuedChanges() == Array(queued.dropFirst()))
                let firstID = try #require(serverIDs(of: interrupted)[temporary[0]])
                #expect(
                    try await cache.local.record(firstID, in: "/jsonapi/authors")?["attributes"]?["name"]
                        == .string(names[0])
                )
                #expect(try await cache.local.record(temporary[0], in: "/jsonapi/authors") == nil)
                for (name, id) in zip(names, temporary).dropFirst() {
                    #expect(
                        try await cache.local.record(id, in: "/jsonapi/authors")?["attributes"]?["name"]
                            == .string(name)
                    )
                }

                try await server.start()
                // The held write was not saved.
                #expect(try await AtomicReplayModels.serverAuthorNames(at: server.baseURL) == [names[0]])

                let report = try await cache.replay()

                #expect(report.sent.count == 2 && report.remaining == 0 && report.failures.isEmpty)
                #expect(report.stoppedBy == nil)
                #expect(try await AtomicReplayModels.serverAuthorNames(at: server.baseURL).sorted() == names.sorted())
                let counts = try await server.creates()["/jsonapi/authors"]
                #expect(counts?.creates == 3 && counts?.replays == 0)
                let ids = serverIDs(of: report)
                for (name, id) in zip(names, temporary).dropFirst() {
                    #expect(try await cache.local.record(id, in: "/jsonapi/authors") == nil, "\(id) is still local")
                    let serverID = try #require(ids[id])
                    #expect(
                        try await cache.local.record(serverID, in: "/jsonapi/authors")?["attributes"]?["name"]
                            == .string(name)
                    )
                }
                await server.stop()
            }
        }

        // MARK: - Helpers

        /// A model's id as the local store keys it.
        private func key(_ model: Model) -> String {
            switch model.id {
            case .string(let id): id
            case .int(let id): String(id)
            default: ""
            }
        }

        /// Whether a replay stopped because the connection broke.
        private func isTransportError(_ error: SyncError?) -> Bool {
            if case .transport = error { true } else { false }
        }

        /// The local records at each collection and id, in order.
        private func localRecords(_ keys: [(String, String)], in cache: CachingSync) async throws -> [Attributes?] {
            var records: [Attributes?] = []
            for (collection, id) in keys { records.append(try await cache.local.record(id, in: collection)) }
            return records
        }

        /// The server id each sent create got, by the temporary id it replaced.
        private func serverIDs(of report: ReplayReport) -> [String: String] {
            var ids: [String: String] = [:]
            for sent in report.sent where sent.change.method == .create {
                ids[sent.change.recordID] = sent.response.body?["data"]?["id"]?.stringValue
            }
            return ids
        }

        /// Every resource of an unpaged `/jsonapi/` list, as another client reads it.
        private func serverList(_ path: String, at baseURL: URL) async throws -> [JSONValue] {
            try await AtomicReplayModels.serverResource(path, at: baseURL)?.arrayValue ?? []
        }
    }
#endif
