import Keel
import KeelTestServer
import Testing

/// Saving a batch: the new and changed models, one outcome each, progress after each, and
/// one failure not stopping the others.
@MainActor
struct CollectionSaveAllTests {
    @Test func savesTheNewAndChangedModelsAndReportsEachOutcome() async throws {
        let backend = ScriptedSync { request throws(SyncError) in
            if request.body?["title"] == "bad" { throw .validationFailed(["title": ["is bad"]], status: 422) }
            return SyncResponse(status: 201, body: ["id": .int(Int.random(in: 10...1_000_000))])
        }
        let notes = Collection<Model>(url: "/notes", sync: backend)
        let saved = Model(["id": 1, "title": "kept"])
        notes.add(saved)
        saved.markAsFetched()
        notes.add([Model(["title": "a"]), Model(["title": "bad"]), Model(["title": "c"])])
        var reports: [BatchProgress] = []
        let outcomes = await notes.saveAll { reports.append($0) }
        #expect(outcomes.map { $0.model["title"] } == ["a", "bad", "c"])
        #expect(outcomes.map { $0.error == nil } == [true, false, true])
        #expect(outcomes[1].error?.validationError?["title"] == ["is bad"])
        #expect(reports.map(\.completed) == [1, 2, 3])
        #expect(reports.last == BatchProgress(completed: 3, failed: 1, total: 3))
        #expect(reports.last?.fractionCompleted == 1)
        #expect(backend.requests.count == 3)
    }

    @Test func aCancelledBatchSendsNothingMore() async throws {
        let backend = ScriptedSync { _ in SyncResponse(status: 201, body: ["id": 1]) }
        let notes = Collection<Model>(url: "/notes", sync: backend)
        notes.add([Model(["title": "a"]), Model(["title": "b"])])
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await notes.saveAll().map { $0.error }
        }
        #expect(await task.value == [.cancelled, .cancelled])
        #expect(backend.requests.isEmpty)
    }

    @Test func aBatchOfNotesReachesTheRailsApp() async throws {
        final class Note: Model {
            override class var wireFormat: WireFormat { .rails }
        }
        let notes = Collection<Note>(url: "/notes", sync: RESTSync(baseURL: try await RailsTestServer.shared.baseURL))
        notes.add([Note(["title": "one"]), Note(["title": ""]), Note(["title": "three"])])
        let outcomes = await notes.saveAll()
        #expect(outcomes.map { $0.model.isNew } == [false, true, false])
        #expect(outcomes[1].model.validationError?["title"] == ["can't be blank"])
    }
}
