import Foundation
import Keel
import Testing

/// Saves, fetches and destroys of one model run one at a time, in call order (Backbone #345):
/// a second save of a new model waits for the first one's create and then updates.
@MainActor
struct OverlappingSaveTests {
    private func makeNote(_ backend: InMemorySync, _ attributes: Attributes = ["title": "draft"]) -> Model {
        let note = Model(attributes)
        note.urlRoot = "/notes"
        note.sync = backend
        return note
    }

    @Test func twoSavesOfANewModelCreateOnceThenUpdate() async throws {
        let backend = InMemorySync(latency: .milliseconds(20))
        let note = makeNote(backend)

        let first = Task { try await note.save(["title": "first"]) }
        let second = Task { try await note.save(["title": "second"]) }
        let created = try await first.value
        let updated = try await second.value

        #expect(created.status == 201)
        #expect(updated.status == 200)
        #expect(backend.requests.map(\.method) == [.create, .update])
        #expect(backend.requests.map(\.path) == ["/notes", "/notes/1"])
        #expect(backend.records(at: "/notes") == [["title": "second", "id": 1]])
        #expect(note.attributes == ["title": "second", "id": 1])
    }

    // `async let` cannot share a model between child tasks (Model is not Sendable), so
    // concurrent saves are main-actor tasks started from the same isolation.
    @Test func threeQueuedSavesIncludingAWaitSave() async throws {
        let backend = InMemorySync(latency: .milliseconds(20))
        let note = makeNote(backend)
        let saves = [
            Task { try await note.save(["rank": 1]) },
            Task { try await note.save(["rank": 2]) },
            Task { try await note.save(["rank": 3], wait: true) },
        ]
        for save in saves { _ = try await save.value }
        #expect(backend.requests.map(\.method) == [.create, .update, .update])
        #expect(backend.records(at: "/notes") == [["title": "draft", "rank": 3, "id": 1]])
        #expect(note["rank"] == 3)
        #expect(note.id == 1)
    }

    @Test func waitSaveQueuedBehindACreateUpdatesTheCreatedRecord() async throws {
        let backend = InMemorySync(latency: .milliseconds(20))
        let note = makeNote(backend)
        let first = Task { try await note.save() }
        let second = Task { try await note.save(["title": "after"], wait: true) }
        _ = try await first.value
        _ = try await second.value
        #expect(backend.requests.map(\.method) == [.create, .update])
        #expect(backend.requests.last?.body == ["title": "after", "id": 1])
        #expect(backend.records(at: "/notes").count == 1)
    }

    @Test func fetchQueuedBehindACreateReadsTheCreatedRecord() async throws {
        let backend = InMemorySync(latency: .milliseconds(20))
        let note = makeNote(backend)
        let save = Task { try await note.save() }
        let fetch = Task { try await note.fetch() }
        _ = try await save.value
        _ = try await fetch.value
        #expect(backend.requests.map { "\($0.method) \($0.path)" } == ["create /notes", "read /notes/1"])
    }

    @Test func destroyQueuedBehindACreateDeletesTheCreatedRecord() async throws {
        let backend = InMemorySync(latency: .milliseconds(20))
        let note = makeNote(backend)
        let save = Task { try await note.save() }
        let destroy = Task { try await note.destroy(wait: true) }
        _ = try await save.value
        _ = try await destroy.value
        #expect(backend.requests.map(\.method) == [.create, .delete])
        #expect(backend.records(at: "/notes").isEmpty)
    }

    @Test func aFailedFirstSaveLetsTheNextOneThrough() async throws {
        let backend = InMemorySync(latency: .milliseconds(20))
        backend.failNext(with: .httpStatus(503, body: nil))
        let note = makeNote(backend)
        let first = Task { try await note.save() }
        let second = Task { try await note.save() }
        await #expect(throws: SyncError.httpStatus(503, body: nil)) { _ = try await first.value }
        _ = try await second.value
        #expect(backend.requests.map(\.method) == [.create, .create])
        #expect(backend.records(at: "/notes").count == 1)
        #expect(note.id == 1)
    }

    @Test func aCancelledQueuedSaveIsNeverSent() async throws {
        let backend = GatedSync()
        let note = Model(["title": "draft"])
        note.urlRoot = "/notes"
        note.sync = backend
        let first = await startInFlight({ try await note.save(["title": "first"]) }) { backend.waitingCount == 1 }
        let second = Task { try await note.save(["title": "second"]) }
        await Task.yield()
        second.cancel()
        backend.release()
        _ = try await first.value
        await #expect(throws: SyncError.cancelled) { _ = try await second.value }
        #expect(backend.store.requests.map(\.method) == [.create])
        #expect(note["title"] == "first")
        #expect(backend.store.records(at: "/notes") == [["title": "first", "id": 1]])
    }

    @Test func differentModelsDoNotWaitForEachOther() async throws {
        let backend = GatedSync()
        let one = Model(["title": "one"])
        let two = Model(["title": "two"])
        for note in [one, two] {
            note.urlRoot = "/notes"
            note.sync = backend
        }
        let first = Task { try await one.save() }
        let second = Task { try await two.save() }
        // Both requests are in flight at once.
        while backend.waitingCount < 2 { await Task.yield() }
        backend.release()
        _ = try await first.value
        _ = try await second.value
        #expect(Set([one.id, two.id]) == [1, 2])
    }
}
