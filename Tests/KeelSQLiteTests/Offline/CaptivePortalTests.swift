import Foundation
import Keel
import KeelSQLite
import KeelTestServer
import Testing

/// Behind a captive portal (every request answered `200 text/html`) or a broken proxy
/// (`201 {oops`), the queue waits: nothing is failed or undone, and a replay against the
/// real server afterwards sends every change once, with the keys it was queued with.
@Suite(.serialized)
struct CaptivePortalTests {
    /// The test server's prefixes that answer every request as a portal or proxy would.
    enum Portal: String, CaseIterable, Sendable {
        case html
        case emptyHTML = "empty-html"
        case brokenJSON = "broken-json"

        var status: Int { self == .brokenJSON ? 201 : 200 }
        var contentType: String { self == .brokenJSON ? "application/json" : "text/html" }
    }

    /// A cache in front of `baseURL`, whose timeout bounds only a slow answer on a loaded machine.
    private func cache(_ baseURL: URL, local: SQLiteOfflineStore) -> CachingSync {
        CachingSync(remote: RESTSync(baseURL: baseURL, timeout: .seconds(60)), local: local)
    }

    @Test(arguments: Portal.allCases)
    func writesBehindAPortalStayPendingAndALaterReplaySendsEachOnce(portal: Portal) async throws {
        try await withTemporaryDirectory { directory in
            let server = try await RestartableServer(directory: directory)
            let local = try SQLiteOfflineStore(fileURL: directory.appending(path: "cache.sqlite"))
            let behindPortal = cache(server.baseURL.appending(path: "portal/\(portal.rawValue)/"), local: local)
            let notes = Collection<Note>(url: "/notes", sync: behindPortal)

            // sendsImmediately is on: each write is sent at once, reaches the portal, and stays.
            let milk = try await notes.create(["title": "Milk"])
            let eggs = try await notes.create(["title": "Eggs"])
            try await milk.save(["title": "Milk, 2 l"], patch: true)
            #expect(TemporaryID.isTemporary(milk.id) && TemporaryID.isTemporary(eggs.id))
            #expect(milk.syncState == .pending && eggs.syncState == .pending)
            #expect(try await local.record(try #require(milk.id?.stringValue), in: "/notes")?["title"] == "Milk, 2 l")

            let report = try await behindPortal.replay()
            #expect(report.sent.isEmpty && report.failures.isEmpty)
            #expect(report.remaining == 3)
            let error = try #require(report.stoppedBy)
            guard case .undecodableBody(let status, let reason, _) = error else {
                Issue.record("stopped by \(error), not a decoding error")
                return
            }
            #expect(status == portal.status)
            #expect(reason.contains(portal.contentType) || portal == .brokenJSON)
            #expect(error.description.contains("(\(portal.status))"))
            #expect(error.description.contains(portal.contentType))
            let queued = try await behindPortal.queuedChanges()
            #expect(queued.map(\.state) == [.pending, .pending, .pending])
            let hits = try await server.send(.read, "/portal/__hits").body?[portal.rawValue]?.intValue ?? 0
            #expect(hits >= 4, "every write and the replay reached the portal")

            let online = cache(server.baseURL, local: local)
            let sent = try await online.replay()
            #expect(sent.stoppedBy == nil && sent.failures.isEmpty)
            #expect(sent.sent.map(\.change.idempotencyKey) == queued.map(\.idempotencyKey))
            #expect(sent.remaining == 0)
            let counts = try await server.creates()
            #expect(counts["/notes"]?.creates == 2)
            #expect(counts["/notes"]?.replays == 0)
            let titles = try await server.send(.read, "/notes").body?.arrayValue?.compactMap { $0["title"] }
            #expect(titles == ["Milk, 2 l", "Eggs"])
            #expect(try await online.replay().sent.isEmpty, "nothing is sent twice")
        }
    }

    @Test(arguments: Portal.allCases)
    func aReadBehindAPortalIsAnsweredFromTheLocalCopy(portal: Portal) async throws {
        try await withTemporaryDirectory { directory in
            let server = try await RestartableServer(directory: directory)
            let local = try SQLiteOfflineStore(fileURL: directory.appending(path: "cache.sqlite"))
            let notes = Collection<Note>(url: "/notes", sync: cache(server.baseURL, local: local))
            _ = try await notes.create(["title": "Stored"])
            try await notes.fetch()

            let behindPortal = Collection<Note>(
                url: "/notes",
                sync: cache(server.baseURL.appending(path: "portal/\(portal.rawValue)/"), local: local)
            )
            try await behindPortal.fetch()
            #expect(behindPortal.models.map { $0["title"] } == ["Stored"])
        }
    }
}
