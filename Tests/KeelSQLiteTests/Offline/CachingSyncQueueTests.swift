import Foundation
import Keel
import KeelSQLite
import Synchronization
import Testing

/// Writes go to the local store and the durable queue at once, and are sent in order with
/// their idempotency keys.
struct CachingSyncQueueTests {
    @Test func anInMemoryOfflineStoreAnswersWithoutSuspendingItsCaller() async throws {
        let local = try SQLiteOfflineStore.inMemory()
        let executor = CountingTaskExecutor()
        let (resumptions, queued) = try await Task(executorPreference: executor) {
            let before = executor.jobCount
            let queued = try await local.queuedChanges()
            return (executor.jobCount - before, queued)
        }.value
        #expect(resumptions == 0)
        #expect(queued.isEmpty)
    }

    @Test func anOnlineSaveIsSentAtOnceAndLeavesNothingQueued() async throws {
        let (cache, remote) = try makeCache()
        let note = Note(["title": "Online"])
        note.sync = cache
        try await note.save()
        #expect(note.id == 1)
        #expect(note.syncState == .synced)
        #expect(try await cache.queuedChanges().isEmpty)
        #expect(remote.creates.count == 1)
        #expect(remote.creates.first?.headers["Idempotency-Key"] != nil)
    }

    @Test func anOfflineCreateGetsATemporaryIDAndIsPending() async throws {
        let (cache, remote) = try makeCache()
        remote.isOnline = false
        let note = Note(["title": "Offline"])
        note.sync = cache
        var states: [SyncState] = []
        note.on(.syncState) { event in states.append(event.model?.syncState ?? .synced) }
        try await note.save()
        #expect(note.id == "local-1")
        #expect(TemporaryID.isTemporary(note.id))
        #expect(note.syncState == .pending)
        #expect(states == [.pending])
        let queued = try await cache.queuedChanges()
        #expect(queued.map(\.method) == [.create])
        #expect(queued.first?.body == ["title": "Offline"])
    }

    @Test func replaySendsTheQueueInOrderAndTheModelGetsItsServerID() async throws {
        let (cache, remote) = try makeCache()
        let map = IdentityMap()
        remote.isOnline = false
        let notes = Collection<Note>(
            factory: map.factory(for: Note.self, collection: "/notes"),
            url: "/notes",
            sync: cache
        )
        let first = try await notes.create(["title": "One"])
        let second = try await notes.create(["title": "Two"])
        try await first.save(["title": "One, edited"])
        try await second.destroy()
        #expect(try await cache.queuedChanges().map(\.method) == [.create, .create, .update, .delete])

        remote.isOnline = true
        let report = try await cache.replay()
        map.apply(report)
        #expect(report.sent.count == 4)
        #expect(report.remaining == 0)
        #expect(remote.received.map(\.method) == [.create, .create, .update, .delete])
        #expect(remote.received[2].url.path == "/notes/1")
        #expect(first.id == 1)
        #expect(first["title"] == "One, edited")
        #expect(first.syncState == .synced)
        let server = try await remote.serverWrite(.read, "/notes")
        #expect(server.body == [["title": "One, edited", "id": 1]])
    }

    @Test func aReplayedCreateIsSentWithTheSameIdempotencyKeyAndCreatedOnce() async throws {
        let local = try SQLiteOfflineStore.inMemory()
        let (cache, remote) = try makeCache(local: local) { $0.sendsImmediately = false }
        _ = try await cache.perform(SyncRequest(method: .create, url: url("/notes"), body: ["title": "A"]))
        let change = try #require(try await cache.queuedChanges().first)
        // The server got the create, but the answer was lost (a crash before it was recorded).
        _ = try await remote.perform(
            SyncRequest(
                method: .create,
                url: url("/notes"),
                body: ["title": "A"],
                headers: ["Idempotency-Key": change.idempotencyKey]
            )
        )
        let report = try await cache.replay()
        #expect(report.sent.count == 1)
        #expect(remote.creates.count == 1)
        #expect(try await local.record("1", in: "/notes") == ["title": "A", "id": 1])
        #expect(try await local.record("local-1", in: "/notes") == nil)
    }

    @Test func aChildCreatedOfflineUnderAnOfflineParentReachesTheServerWithTheParentsID() async throws {
        let (cache, remote) = try makeCache()
        let map = IdentityMap()
        _ = try await remote.serverWrite(.create, "/notes", body: ["title": "Existing"])
        remote.isOnline = false
        let notes = Collection<Note>(
            factory: map.factory(for: Note.self, collection: "/notes"),
            url: "/notes",
            sync: cache
        )
        let comments = Collection<Comment>(
            factory: map.factory(for: Comment.self, collection: "/comments"),
            url: "/comments",
            sync: cache
        )
        let note = try await notes.create(["title": "Offline"])
        let comment = try await comments.create(["body": "First", "note_id": note.id ?? nil])
        #expect(comment["note_id"] == "local-1")

        remote.isOnline = true
        map.apply(try await cache.replay())
        #expect(note.id == 2)
        #expect(comment.id == 1)
        #expect(comment["note_id"] == 2)
        let sent = try #require(remote.creates.last)
        #expect(sent.body?["note_id"] == 2)
        #expect(try await cache.local.record("1", in: "/comments")?["note_id"] == 2)
        #expect(try await cache.local.serverID(for: "local-1", in: "/notes") == 2)
    }

    @Test func aRejectedChangeStaysQueuedAsFailedAndBlocksLaterChangesOfItsRecord() async throws {
        let (cache, remote) = try makeCache { $0.sendsImmediately = false }
        _ = try await remote.serverWrite(.create, "/notes", body: ["title": "Kept"])
        _ = try await cache.perform(SyncRequest(method: .read, url: url("/notes")))
        _ = try await cache.perform(SyncRequest(method: .patch, url: url("/notes/1"), body: ["title": "x"]))
        _ = try await cache.perform(SyncRequest(method: .patch, url: url("/notes/1"), body: ["title": "y"]))
        _ = try await remote.serverWrite(.delete, "/notes/1")

        let report = try await cache.replay()
        #expect(report.failures.map(\.error.status) == [404])
        #expect(report.records.first?.state == .failed(.storeRefused(StoreRefusal(.notFound, path: "notes/1"))))
        let queued = try await cache.queuedChanges()
        #expect(queued.count == 2)
        #expect(queued.map(\.state) == [.failed(.storeRefused(StoreRefusal(.notFound, path: "notes/1"))), .pending])

        for change in queued { try await cache.discard(change) }
        #expect(try await cache.queuedChanges().isEmpty)
    }

    @Test func anOnlineSaveTheServerRejectsThrowsAndIsUndoneLocally() async throws {
        let (cache, remote) = try makeCache()
        _ = try await remote.serverWrite(.create, "/notes", body: ["title": "Kept"])
        _ = try await cache.perform(SyncRequest(method: .read, url: url("/notes")))
        _ = try await remote.serverWrite(.delete, "/notes/1")
        let note = Note(["id": 1, "title": "Kept"])
        note.sync = cache
        await #expect(throws: SyncError.storeRefused(StoreRefusal(.notFound, path: "notes/1"))) {
            try await note.save(["title": "Changed"], patch: true)
        }
        #expect(note.syncState == .failed(.storeRefused(StoreRefusal(.notFound, path: "notes/1"))))
        #expect(try await cache.queuedChanges().isEmpty)
        #expect(try await cache.local.record("1", in: "/notes")?["title"] == "Kept")
    }

    @Test func theQueueSurvivesReopeningTheFile() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "cache.sqlite")
            let remote = SwitchableRemote()
            remote.isOnline = false
            do {
                let (cache, _) = try makeCache(remote: remote, local: try SQLiteOfflineStore(fileURL: file))
                _ = try await cache.perform(
                    SyncRequest(method: .create, url: url("/notes"), body: ["title": "A"])
                )
            }
            remote.isOnline = true
            let (cache, _) = try makeCache(remote: remote, local: try SQLiteOfflineStore(fileURL: file))
            #expect(try await cache.queuedChanges().count == 1)
            try await cache.replay()
            #expect(remote.creates.count == 1)
            #expect(try await cache.queuedChanges().isEmpty)
        }
    }
}

/// Replays that writes start are reported too, so live models can follow them.
struct CachingSyncReplayReportTests {
    @Test func aWriteThatSendsEarlierChangesReportsThemToOnReplay() async throws {
        let reports = Mutex<[ReplayReport]>([])
        let (cache, remote) = try makeCache { $0.onReplay = { report in reports.withLock { $0.append(report) } } }
        let map = IdentityMap()
        let notes = Collection<Note>(
            factory: map.factory(for: Note.self, collection: "/notes"),
            url: "/notes",
            sync: cache
        )
        remote.isOnline = false
        let offline = try await notes.create(["title": "Offline"])
        #expect(reports.withLock { $0.isEmpty })
        remote.isOnline = true
        _ = try await notes.create(["title": "Online"])
        let report = try #require(reports.withLock { $0.last })
        #expect(report.sent.count == 2)
        map.apply(report)
        #expect(offline.id == 1 && offline.syncState == .synced)
    }
}
