import Foundation
import Keel
import KeelSQLite
import Testing

/// The offline cache with a wire format that wraps records in a root key (Rails): the local
/// copy and the queue keep records without it, and every request to the server has it.
struct CachingSyncWrappedFormatTests {
    final class Chore: Model {
        override class var urlRoot: String? { "/chores" }
        override class var wireFormat: WireFormat { .rails }
    }

    final class Step: Model {
        static let chore = BelongsTo<Chore>("chore", foreignKey: "choreId")
        override class var urlRoot: String? { "/steps" }
        override class var wireFormat: WireFormat { .rails }
        override class var relations: [any Relation] { [chore] }
    }

    private func makeRailsCache() throws -> (CachingSync, SwitchableRemote) {
        try makeCache { configuration in
            configuration.register(Chore.self)
            configuration.register(Step.self)
        }
    }

    @Test func offlineCreatesAreQueuedUnwrappedAndSentWrappedWithServerIDs() async throws {
        let (cache, remote) = try makeRailsCache()
        remote.isOnline = false
        let chore = Chore(["title": "Paint"])
        chore.sync = cache
        try await chore.save()
        let step = Step(["title": "Sand", "choreId": chore.id ?? nil])
        step.sync = cache
        try await step.save()
        #expect(chore.id == "local-1")
        #expect(chore.attributes == ["title": "Paint", "id": "local-1"])

        let queued = try await cache.queuedChanges()
        #expect(queued.map(\.body) == [["title": "Paint"], ["title": "Sand", "chore_id": "local-1"]])
        #expect(queued.map(\.rootKey) == ["chore", "step"])
        #expect(
            try await cache.local.record("local-2", in: "/steps") == [
                "title": "Sand", "chore_id": "local-1", "id": "local-2",
            ]
        )

        remote.isOnline = true
        let report = try await cache.replay()
        #expect(report.sent.count == 2)
        #expect(
            remote.creates.map(\.body) == [
                ["chore": ["title": "Paint"]], ["step": ["title": "Sand", "chore_id": 1]],
            ]
        )
        #expect(try await cache.local.record("1", in: "/steps") == ["title": "Sand", "chore_id": 1, "id": 1])
    }

    @Test func anOnlineEditIsSentWrappedAndStoredUnwrapped() async throws {
        let (cache, remote) = try makeRailsCache()
        _ = try await remote.serverWrite(.create, "/chores", body: ["title": "Paint"])
        let chores = Collection<Chore>(url: "/chores", sync: cache)
        try await chores.fetch()
        let chore = try #require(chores.get(1))
        try await chore.save(["title": "Paint the fence"], patch: true)
        #expect(remote.received.last?.body == ["chore": ["title": "Paint the fence"]])
        #expect(try await cache.local.record("1", in: "/chores") == ["title": "Paint the fence", "id": 1])
        #expect(try await cache.queuedChanges().isEmpty)
    }

    @Test func aRequestWithoutARootKeyIsQueuedAndSentAsItIs() async throws {
        let (cache, remote) = try makeRailsCache()
        remote.isOnline = false
        let request = SyncRequest(method: .create, url: url("/chores"), body: ["chore": ["title": "Old"], "x": 1])
        _ = try await cache.perform(request)
        #expect(try await cache.queuedChanges().first?.rootKey == nil)
        remote.isOnline = true
        _ = try await cache.replay()
        #expect(remote.creates.map(\.body) == [["chore": ["title": "Old"], "x": 1]])
    }

    @Test func aQueueFileFromBeforeRootKeysGainsTheColumnAndKeepsItsChanges() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "offline.sqlite")
            let remote = SwitchableRemote()
            remote.isOnline = false
            do {
                let (cache, _) = try makeCache(remote: remote, local: try SQLiteOfflineStore(fileURL: file))
                _ = try await cache.perform(SyncRequest(method: .create, url: url("/chores"), body: ["title": "A"]))
            }
            let raw = RawDatabase(path: file.path(percentEncoded: false))
            try raw.execute("ALTER TABLE offline_queue DROP COLUMN root_key")

            let (cache, _) = try makeCache(remote: remote, local: try SQLiteOfflineStore(fileURL: file))
            #expect(try await cache.queuedChanges().map(\.body) == [["title": "A"]])
            remote.isOnline = true
            #expect(try await cache.replay().sent.count == 1)
            #expect(remote.creates.map(\.body) == [["title": "A"]])
        }
    }
}
