import Foundation
import Keel
import KeelSQLite
import Testing

/// A pulled or pushed change to a record with a queued local change goes through the
/// conflict policy; the local change is never lost without the policy's say.
@MainActor
struct ServerChangeConflictTests {
    /// Note 1 cached at version 1 and edited locally (queued, not sent), in a store over the cache.
    private func pendingEdit(_ policy: ConflictPolicy, check: VersionCheck = .attribute("version")) async throws
        -> (Store, CachingSync)
    {
        let (cache, remote) = try makeCache {
            $0.sendsImmediately = false
            $0.register(Note.self, versionCheck: check, conflictPolicy: policy)
        }
        _ = try await remote.serverWrite(.create, "/notes", body: ["title": "A", "done": false, "version": 1])
        let store = Store(sync: cache)
        try await store.pull(
            Note.self,
            using: IncrementalPull(
                parameter: "since",
                cursor: .newestAttribute("version"),
                tombstones: .none,
                versionAttribute: "version"
            )
        )
        let note = try #require(store.peek(Note.self, id: 1))
        try await note.save(["title": "Mine"], patch: true)
        #expect(note.syncState == .pending)
        return (store, cache)
    }

    private let theirs = RemoteChange(
        .updated,
        id: 1,
        attributes: ["id": 1, "title": "Theirs", "done": true, "version": 2],
        version: "2"
    )

    @Test func serverWinsTakesThePushedRecordAndDropsTheQueuedChange() async throws {
        let (store, cache) = try await pendingEdit(.serverWins)
        try await store.apply([theirs], to: Note.self)
        #expect(try await cache.queuedChanges().isEmpty)
        #expect(try await cache.local.record("1", in: "/notes")?["title"] == "Theirs")
        #expect(store.peek(Note.self, id: 1)?["title"] == "Theirs")
        #expect(store.peek(Note.self, id: 1)?.syncState == .synced)
    }

    @Test func aManualPolicyKeepsTheLocalChangeInConflict() async throws {
        let (store, cache) = try await pendingEdit(.manual)
        try await store.apply([theirs], to: Note.self)
        let conflicts = try await cache.conflicts()
        #expect(conflicts.count == 1)
        #expect(conflicts.first?.server?["title"] == "Theirs")
        #expect(conflicts.first?.local?["title"] == "Mine")
        #expect(store.peek(Note.self, id: 1)?["title"] == "Mine")
    }

    @Test func clientWinsKeepsTheQueuedChangeToBeSent() async throws {
        let (store, cache) = try await pendingEdit(.clientWins)
        try await store.apply([theirs, RemoteChange(.deleted, id: 1, version: "3")], to: Note.self)
        #expect(try await cache.queuedChanges().count == 1)
        #expect(try await cache.local.record("1", in: "/notes")?["title"] == "Mine")
        #expect(store.peek(Note.self, id: 1)?["title"] == "Mine")
    }

    // The limit bounds a hang; the deadlines inside name a step that stalls. Under the thread
    // sanitizer, with the whole suite running beside it on two cores, the test took 5 minutes
    // with no step past its deadline.
    @Test(.timeLimit(.minutes(10))) func aPushedBatchTakesItsConflictThroughThePolicyAndStoresTheRest() async throws {
        let (store, cache) = try await pendingEdit(.manual)
        let pushes = InMemoryPushSource()
        let listening = Task { @MainActor in try await store.listen(Note.self, to: pushes) }
        defer { listening.cancel() }
        try #require(await eventually(within: .seconds(20)) { pushes.hasListeners }, "the store never listened")
        let other = RemoteChange(
            .created,
            id: 2,
            attributes: ["id": 2, "title": "B", "done": false, "version": 1],
            version: "1"
        )
        pushes.send([theirs, other])

        let deadline = ContinuousClock.now + .seconds(20)
        var cursor = try await cache.cursor(for: "push:/notes")
        while cursor != "2", ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            cursor = try await cache.cursor(for: "push:/notes")
        }
        try #require(cursor == "2", "the pushed batch was not stored (cursor \(cursor ?? "nil"))")
        let conflicts = try await cache.conflicts()
        #expect(conflicts.count == 1)
        #expect(conflicts.first?.server?["title"] == "Theirs")
        #expect(try await cache.local.record("1", in: "/notes")?["title"] == "Mine")
        #expect(try await cache.local.record("2", in: "/notes")?["title"] == "B")
        #expect(store.peek(Note.self, id: 1)?["title"] == "Mine")
        #expect(
            await eventually(within: .seconds(15)) { store.peek(Note.self, id: 2) != nil },
            "note 2 never reached the store"
        )
    }

    @Test func withoutAVersionToCompareTheQueuedChangeStays() async throws {
        let (store, cache) = try await pendingEdit(.serverWins, check: .none)
        try await store.apply([theirs], to: Note.self)
        #expect(try await cache.queuedChanges().count == 1)
        #expect(try await cache.local.record("1", in: "/notes")?["title"] == "Mine")
    }
}
