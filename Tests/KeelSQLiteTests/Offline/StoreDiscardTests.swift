import Foundation
import Keel
import KeelSQLite
import Synchronization
import Testing

/// Discarding a failed queued change through the store rolls the live model back to what the
/// local copy holds afterwards (the server's last state), with the usual events.
@MainActor
struct StoreDiscardTests {
    /// A server that can refuse every write with 422, as a validation failure.
    private final class RefusingRemote: Sync {
        let base = SwitchableRemote()
        let refuses = Mutex(false)

        func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
            if request.method != .read, refuses.withLock({ $0 }) {
                throw .httpStatus(422, body: ["title": ["is taken"]])
            }
            return try await base.perform(request)
        }
    }

    /// A store over a file whose server holds one note, "Kept", loaded in a query by title.
    private func fixture(_ directory: URL) async throws -> (Store, RefusingRemote, LiveQuery<Note>) {
        let remote = RefusingRemote()
        _ = try await remote.base.serverWrite(.create, "/notes", body: ["title": "Kept"])
        var configuration = CachingSync.Configuration()
        configuration.sendsImmediately = false
        let store = try Store.offline(remote: remote, fileURL: directory.appending(path: "cache.sqlite"), configuration: configuration)
        let notes = store.query(Note.self, sort: .attribute("title"))
        try await notes.load()
        return (store, remote, notes)
    }

    @Test func aDiscardedUpdateRestoresTheServerStateWithChangeEvents() async throws {
        try await withTemporaryDirectory { directory in
            let (store, remote, notes) = try await fixture(directory)
            let note = try #require(notes.first)
            try await note.save(["title": "Changed"], patch: true)
            remote.refuses.withLock { $0 = true }
            try await store.replay()
            #expect(note.syncState != .synced && note.syncState != .pending)
            var events: [String] = []
            note.on("change:title") { events.append("\($0.name) \($0.model?["title"] ?? nil)") }
            let change = try #require(try await store.cachingSync?.queuedChanges().first)
            try await store.discard(change)
            #expect(note["title"] == "Kept")
            #expect(events == ["change:title \(JSONValue("Kept"))"])
            #expect(note.syncState == .synced)
            #expect(notes.map { $0["title"] } == ["Kept"])
            #expect(try await store.cachingSync?.queuedChanges().isEmpty == true)
        }
    }

    @Test func aDiscardedCreateTakesTheModelOutOfTheQueries() async throws {
        try await withTemporaryDirectory { directory in
            let (store, remote, notes) = try await fixture(directory)
            let draft = try await store.create(Note.self, ["title": "Draft"])
            #expect(notes.map { $0["title"] } == ["Draft", "Kept"])
            remote.refuses.withLock { $0 = true }
            try await store.replay()
            var destroyed = false
            draft.on("destroy") { _ in destroyed = true }
            let change = try #require(try await store.cachingSync?.queuedChanges().first)
            try await store.discard(change)
            #expect(destroyed)
            #expect(notes.map { $0["title"] } == ["Kept"])
        }
    }

    @Test func aDiscardedDeleteBringsTheRecordBack() async throws {
        try await withTemporaryDirectory { directory in
            let (store, remote, notes) = try await fixture(directory)
            try await #require(notes.first).destroy()
            #expect(notes.isEmpty)
            remote.refuses.withLock { $0 = true }
            try await store.replay()
            let change = try #require(try await store.cachingSync?.queuedChanges().first)
            try await store.discard(change)
            #expect(notes.map { $0["title"] } == ["Kept"])
        }
    }

    @Test func discardingNeedsACachingBackend() async throws {
        let store = Store.inMemory()
        let change = QueuedChange(
            sequence: 1,
            method: .patch,
            url: url("/notes/1"),
            collection: "/notes",
            recordID: "1",
            body: nil,
            headers: [:],
            idempotencyKey: "k",
            baseVersion: nil,
            state: .pending,
            rootKey: nil
        )
        await #expect(throws: SyncError.missingBackend) { try await store.discard(change) }
    }
}
