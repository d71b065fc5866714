import Foundation
import Keel
import KeelSQLite
import Testing

/// Reads follow their read policy, and what the remote answers is stored locally: lists
/// are reconciled, records merged into the same instances.
struct CachingSyncReadTests {
    private func seed(_ remote: SwitchableRemote, _ titles: [String]) async throws {
        for title in titles { _ = try await remote.serverWrite(.create, "/notes", body: ["title": .string(title)]) }
    }

    @Test func remoteFirstFallsBackToTheLocalCopyWhenTheRemoteIsUnreachable() async throws {
        let (cache, remote) = try makeCache()
        try await seed(remote, ["A", "B"])
        let notes = Collection<Note>(url: "/notes", sync: cache)
        try await notes.fetch()
        remote.isOnline = false
        let offline = Collection<Note>(url: "/notes", sync: cache)
        try await offline.fetch()
        #expect(offline.models.map { $0["title"] } == ["A", "B"])
    }

    @Test func remoteFirstFailsOfflineForWhatWasNeverCached() async throws {
        let (cache, remote) = try makeCache()
        remote.isOnline = false
        let notes = Collection<Note>(url: "/notes", sync: cache)
        await #expect(throws: SyncError.transport("Could not connect to the server.")) { _ = try await notes.fetch() }
    }

    @Test func localOnlySendsNothingAndRemoteOnlyHasNoFallback() async throws {
        let (cache, remote) = try makeCache()
        try await seed(remote, ["A"])
        let notes = Collection<Note>(url: "/notes", sync: cache)
        try await notes.fetch(readPolicy: .localOnly)
        #expect(notes.isEmpty)
        #expect(remote.received.filter { $0.method == .read }.isEmpty)
        try await notes.fetch(readPolicy: .remoteOnly)
        #expect(notes.count == 1)
        remote.isOnline = false
        await #expect(throws: SyncError.self) { _ = try await notes.fetch(readPolicy: .remoteOnly) }
    }

    @Test func aPerClassPolicyAppliesToPlainFetches() async throws {
        let (cache, remote) = try makeCache { $0.register(Note.self, readPolicy: .localOnly) }
        try await seed(remote, ["A"])
        let notes = Collection<Note>(url: "/notes", sync: cache)
        try await notes.fetch()
        #expect(notes.isEmpty)
        try await notes.fetch(options: SyncOptions(readPolicy: .remoteFirst))
        #expect(notes.count == 1)
    }

    @Test func localThenRemoteUpdatesTheSameInstancesTwiceWithEvents() async throws {
        let (cache, remote) = try makeCache()
        try await seed(remote, ["A"])
        let map = IdentityMap()
        let factory = map.factory(for: Note.self, collection: "/notes")
        try await Collection<Note>(factory: factory, url: "/notes", sync: cache).fetch()
        _ = try await remote.serverWrite(.patch, "/notes/1", body: ["title": "A, edited elsewhere"])

        let notes = Collection<Note>(factory: factory, url: "/notes", sync: cache)
        var titles: [JSONValue?] = []
        notes.on(.sync) { _ in titles.append(notes.first?["title"]) }
        try await notes.fetch(readPolicy: .localThenRemote)
        #expect(titles == ["A", "A, edited elsewhere"])

        let note = try #require(notes.first)
        var noteTitles: [JSONValue?] = []
        note.on(.sync) { _ in noteTitles.append(note["title"]) }
        _ = try await remote.serverWrite(.patch, "/notes/1", body: ["title": "Third"])
        try await note.fetch(readPolicy: .localThenRemote)
        #expect(noteTitles == ["A, edited elsewhere", "Third"])
        #expect(map.existing(Note.self, id: 1, in: "/notes") === note)
    }

    @Test func localThenRemoteKeepsTheLocalCopyWhenTheRemoteIsUnreachable() async throws {
        let (cache, remote) = try makeCache()
        try await seed(remote, ["A"])
        try await Collection<Note>(url: "/notes", sync: cache).fetch()
        remote.isOnline = false
        let notes = Collection<Note>(url: "/notes", sync: cache)
        try await notes.fetch(readPolicy: .localThenRemote)
        #expect(notes.count == 1)
    }

    @Test func aListFetchRemovesRecordsTheServerNoLongerHasButKeepsPendingOnes() async throws {
        let (cache, remote) = try makeCache()
        try await seed(remote, ["A", "B", "C"])
        try await Collection<Note>(url: "/notes", sync: cache).fetch()
        _ = try await remote.serverWrite(.delete, "/notes/2")
        remote.isOnline = false
        _ = try await cache.perform(SyncRequest(method: .create, url: url("/notes"), body: ["title": "Mine"]))
        _ = try await cache.perform(SyncRequest(method: .patch, url: url("/notes/3"), body: ["title": "C2"]))
        remote.isOnline = true
        let (offlineOnly, _) = try makeCache(remote: remote, local: cache.local) { $0.sendsImmediately = false }
        let notes = Collection<Note>(url: "/notes", sync: offlineOnly)
        try await notes.fetch()
        #expect(notes.models.map { $0["title"] } == ["A", "C2", "Mine"])
        #expect(try await cache.local.record("2", in: "/notes") == nil)
    }

    @Test func aFilteredListFetchRemovesNothing() async throws {
        let (cache, remote) = try makeCache()
        try await seed(remote, ["A", "B"])
        try await Collection<Note>(url: "/notes", sync: cache).fetch()
        let filtered = Collection<Note>(url: "/notes", sync: cache)
        try await filtered.fetch(options: SyncOptions(query: ["title": "A"]))
        #expect(filtered.count == 1)
        #expect(try await cache.local.record("2", in: "/notes") != nil)
    }

    @Test func aRecordWithAPendingChangeReadsAsItsLocalCopy() async throws {
        let (cache, remote) = try makeCache { $0.sendsImmediately = false }
        try await seed(remote, ["A"])
        let note = Note(["id": 1])
        note.sync = cache
        try await note.fetch()
        try await note.save(["title": "Local"])
        try await note.fetch()
        #expect(note["title"] == "Local")
        #expect(note.syncState == .pending)
    }
}
