import Foundation
import Keel
import KeelSQLite
import Testing

/// A queued change whose record changed on the server is a conflict, settled by the
/// policy or kept for a person.
struct CachingSyncConflictTests {
    /// Note 1 cached at version 1, edited locally (queued), then edited on the server.
    private func conflictingEdit(_ policy: ConflictPolicy) async throws -> (CachingSync, SwitchableRemote) {
        let (cache, remote) = try makeCache {
            $0.sendsImmediately = false
            $0.register(Note.self, versionCheck: .attribute("version"), conflictPolicy: policy)
        }
        _ = try await remote.serverWrite(.create, "/notes", body: ["title": "A", "done": false, "version": 1])
        _ = try await cache.perform(SyncRequest(method: .read, url: url("/notes")))
        _ = try await cache.perform(
            SyncRequest(method: .patch, url: url("/notes/1"), body: ["title": "Mine"])
        )
        _ = try await remote.serverWrite(.patch, "/notes/1", body: ["done": true, "version": 2])
        return (cache, remote)
    }

    private func serverRecord(_ remote: SwitchableRemote) async throws -> JSONValue? {
        try await remote.serverWrite(.read, "/notes/1").body
    }

    @Test func serverWinsDropsTheLocalChange() async throws {
        let (cache, remote) = try await conflictingEdit(.serverWins)
        let report = try await cache.replay()
        #expect(report.resolved.count == 1)
        #expect(try await serverRecord(remote)?["title"] == "A")
        #expect(try await cache.local.record("1", in: "/notes")?["done"] == true)
        #expect(try await cache.local.record("1", in: "/notes")?["title"] == "A")
        #expect(try await cache.queuedChanges().isEmpty)
    }

    @Test func clientWinsSendsTheLocalChange() async throws {
        let (cache, remote) = try await conflictingEdit(.clientWins)
        try await cache.replay()
        #expect(try await serverRecord(remote)?["title"] == "Mine")
        #expect(try await cache.queuedChanges().isEmpty)
    }

    @Test func aResolverCanMergeBothSides() async throws {
        let (cache, remote) = try await conflictingEdit(
            .resolve { conflict in
                var merged = conflict.server ?? [:]
                merged["title"] = conflict.local?["title"]
                return .merged(merged)
            }
        )
        try await cache.replay()
        let server = try await serverRecord(remote)
        #expect(server?["title"] == "Mine")
        #expect(server?["done"] == true)
        #expect(try await cache.local.record("1", in: "/notes")?["done"] == true)
    }

    @Test func aManualConflictIsKeptAndReportedUntilResolved() async throws {
        let (cache, remote) = try await conflictingEdit(.manual)
        let map = IdentityMap()
        let note = map.model(Note.self, collection: "/notes", attributes: ["id": 1])
        let report = try await cache.replay()
        map.apply(report)
        #expect(report.conflicts.count == 1)
        #expect(note.syncState == .conflict)
        let conflicts = try await cache.conflicts()
        #expect(conflicts.first?.local?["title"] == "Mine")
        #expect(conflicts.first?.server?["done"] == true)
        #expect(try await serverRecord(remote)?["title"] == "A")

        let read = try await cache.perform(SyncRequest(method: .read, url: url("/notes/1")))
        #expect(SyncState(response: read) == .conflict)

        try await cache.resolve(try #require(conflicts.first), with: .useClient)
        #expect(try await serverRecord(remote)?["title"] == "Mine")
        #expect(try await cache.conflicts().isEmpty)
    }

    @Test func applyingWhatResolveReturnsTakesLiveModelsOutOfConflict() async throws {
        let (cache, _) = try await conflictingEdit(.manual)
        let map = IdentityMap()
        let note = map.model(Note.self, collection: "/notes", attributes: ["id": 1, "title": "Mine"])
        map.apply(try await cache.replay())
        #expect(note.syncState == .conflict)

        map.apply(try await cache.resolve(try #require(try await cache.conflicts().first), with: .useServer))
        #expect(note.syncState == .synced)
        #expect(note["title"] == "A")
        #expect(note["done"] == true)
    }

    @Test func anUnchangedServerVersionIsNoConflict() async throws {
        let (cache, remote) = try makeCache {
            $0.sendsImmediately = false
            $0.register(Note.self, versionCheck: .attribute("version"), conflictPolicy: .manual)
        }
        _ = try await remote.serverWrite(.create, "/notes", body: ["title": "A", "version": 1])
        _ = try await cache.perform(SyncRequest(method: .read, url: url("/notes")))
        _ = try await cache.perform(SyncRequest(method: .patch, url: url("/notes/1"), body: ["title": "B"]))
        let report = try await cache.replay()
        #expect(report.conflicts.isEmpty)
        #expect(try await serverRecord(remote)?["title"] == "B")
    }
}
