import Foundation
@testable import Keel
import KeelSQLite
import Testing

/// A `Store.offline` over a SQLite file sees what another store on the same file commits,
/// as a store over `SQLiteSync` does: the caching backend reports the local file's
/// `data_version`.
@MainActor
struct OfflineStoreExternalChangesTests {
    @Test func aChangeQueuedByAnotherStoreOnTheFileReachesAQueryOfThisOne() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "cache.sqlite")
            let remote = SwitchableRemote()
            _ = try await remote.serverWrite(.create, "/notes", body: ["title": "Milk"])
            let mine = try Store.offline(remote: remote, fileURL: file)
            let other = try Store.offline(remote: remote, fileURL: file)
            let notes = mine.query(Note.self, sort: .attribute("title"))
            try await notes.load()
            #expect(notes.map { $0["title"] } == ["Milk"])

            // Offline, the other store queues a create in the shared file only.
            remote.isOnline = false
            try await other.create(Note.self, ["title": "Eggs"])
            await mine.checkForExternalChanges(force: true)
            #expect(notes.isStale)
            try await notes.load()
            #expect(notes.map { $0["title"] } == ["Eggs", "Milk"])
        }
    }

    @Test func nothingIsReadAgainWhileNothingChanged() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "cache.sqlite")
            let store = try Store.offline(remote: SwitchableRemote(), fileURL: file)
            let notes = store.query(Note.self)
            try await notes.load()
            try await store.create(Note.self, ["title": "Milk"])
            try await notes.load()
            for _ in 1...3 { await store.checkForExternalChanges(force: true) }
            #expect(!notes.isStale)
        }
    }

    @Test func theVersionFollowsOnlyOtherConnections() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "cache.sqlite")
            let mine = CachingSync(remote: SwitchableRemote(), local: try SQLiteOfflineStore(fileURL: file))
            let other = try SQLiteOfflineStore(fileURL: file)
            let start = try await mine.externalChangeVersion()
            _ = try await mine.perform(SyncRequest(method: .create, url: url("/notes"), body: ["title": "Milk"]))
            #expect(try await mine.externalChangeVersion() == start)
            _ = try await other.write(
                SyncRequest(method: .create, url: url("/notes"), body: ["title": "Eggs"]),
                idempotencyKey: "k1",
                versionCheck: .none
            )
            #expect(try await mine.externalChangeVersion() != start)
        }
    }
}
