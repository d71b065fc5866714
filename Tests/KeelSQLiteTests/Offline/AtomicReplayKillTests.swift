import Foundation
import Keel
import KeelSQLite
import KeelTestServer
import Testing

/// The test server (gunicorn, with its database kept across restarts) killed after it applied
/// an atomic replay and before the client read the answer: the queue stays whole, and the
/// resend, recognised by its `Idempotency-Key`, leaves each record on the server once.
struct AtomicReplayKillTests {
    typealias Author = AtomicReplayModels.Author
    typealias Article = AtomicReplayModels.Article

    @Test func aServerKilledBeforeTheAnswerIsReadKeepsTheQueueAndTheResendCreatesEachRecordOnce() async throws {
        try await withTemporaryDirectory { directory in
            let server = try await RestartableServer(directory: directory)
            let running = try #require(server.server)
            let file = directory.appending(path: "cache.sqlite")
            let losing = AnswerLosingSync(
                RESTSync(baseURL: server.baseURL, timeout: .seconds(60)),
                losingAnswersTo: "/jsonapi/operations"
            ) {
                running.stop()
                await running.waitUntilExited()
            }
            let cache = try AtomicReplayModels.cache(remote: losing, file: file)
            let names = (1...3).map { "Killed-\($0)-\(UUID())" }
            var authors: [Author] = []
            for name in names {
                let author = Author(["name": .string(name)])
                author.sync = cache
                try await author.save()
                authors.append(author)
            }
            let article = Article(["title": "Survives", "authorId": authors[0].id ?? nil])
            article.sync = cache
            try await article.save()
            let queued = try await cache.queuedChanges()
            #expect(queued.count == 4)

            let interrupted = try await cache.replay()

            #expect(interrupted.stoppedBy != nil && interrupted.sent.isEmpty && interrupted.failures.isEmpty)
            #expect(try await cache.queuedChanges() == queued)
            #expect(
                try await cache.local.record("local-1", in: "/jsonapi/authors")?["attributes"]?["name"]
                    == .string(names[0])
            )

            await server.stop()
            try await server.start()
            // The server committed the batch before it was killed.
            let applied = try await AtomicReplayModels.serverAuthorNames(at: server.baseURL)
            #expect(names.allSatisfy { name in applied.filter { $0 == name }.count == 1 })

            let resumed = try AtomicReplayModels.cache(
                remote: RESTSync(baseURL: server.baseURL, timeout: .seconds(60)),
                file: file
            )
            let report = try await resumed.replay()

            #expect(report.sentAtomically == 4 && report.remaining == 0 && report.failures.isEmpty)
            let onServer = try await AtomicReplayModels.serverAuthorNames(at: server.baseURL)
            for name in names { #expect(onServer.filter { $0 == name }.count == 1, "\(name) is on the server twice") }
            #expect(try await server.creates()["/jsonapi/operations"]?.replays == 1)
            let serverIDs = report.sent.compactMap { $0.response.body?["data"]?["id"]?.stringValue }
            #expect(serverIDs.count == 4)
            for (name, id) in zip(names, serverIDs) {
                #expect(
                    try await resumed.local.record(id, in: "/jsonapi/authors")?["attributes"]?["name"] == .string(name)
                )
            }
            let localArticle = try await resumed.local.record(serverIDs[3], in: "/jsonapi/articles")
            #expect(localArticle?["relationships"]?["author"]?["data"]?["id"] == .string(serverIDs[0]))
            let storedArticle = try await AtomicReplayModels.serverResource(
                "/jsonapi/articles/\(serverIDs[3])",
                at: server.baseURL
            )
            #expect(storedArticle?["relationships"]?["author"]?["data"]?["id"] == .string(serverIDs[0]))
            for temporary in ["local-1", "local-2", "local-3"] {
                #expect(try await resumed.local.record(temporary, in: "/jsonapi/authors") == nil)
            }
        }
    }
}
