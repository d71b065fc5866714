import Keel
import Testing

/// `save(patch: true)` sends only what changed, and nothing at all when nothing did.
@MainActor
struct PatchWithNothingTests {
    private func syncedNote() async throws -> (Model, InMemorySync) {
        let backend = InMemorySync()
        let note = Model(["title": "Dune"])
        note.urlRoot = "/notes"
        note.sync = backend
        try await note.save()
        return (note, backend)
    }

    @Test func aPatchWithNothingUnsavedSendsNothingAndSucceeds() async throws {
        let (note, backend) = try await syncedNote()
        let log = SyncEventLog()
        log.watch(note)
        var successes: [SyncResponse] = []

        let response = try await note.save(patch: true, options: SyncOptions(onSuccess: { successes.append($0) }))

        #expect(response.status == 204)
        #expect(successes.map(\.status) == [204])
        #expect(backend.requests.map(\.method) == [.create])
        #expect(log.entries.isEmpty)
    }

    @Test func aPatchWithAnEmptyObjectSendsNothing() async throws {
        let (note, backend) = try await syncedNote()
        try await note.save([:], patch: true)
        #expect(backend.requests.map(\.method) == [.create])
    }

    @Test func aPatchSendsOnlyTheUnsavedChanges() async throws {
        let (note, backend) = try await syncedNote()
        note["done"] = true
        try await note.save(patch: true)
        #expect(backend.requests.last?.method == .patch)
        #expect(backend.requests.last?.body == ["done": true])
    }

    @Test func aPatchOfANewModelStillCreatesIt() async throws {
        let backend = InMemorySync()
        let note = Model()
        note.urlRoot = "/notes"
        note.sync = backend
        try await note.save(patch: true)
        #expect(backend.requests.map(\.method) == [.create])
    }
}
