import Foundation
import Keel
import Testing

/// Batches of fetches, saves and destroys: several in flight up to `maxConcurrent`, each
/// model's outcome applied as by a single call, progress once per model, and cancellation.
///
/// The time limit guards against a hang (a batch that sends one request at a time never gets
/// its first answer from ``BatchOverlapSync``). Every test of a run starts at once, so on a
/// busy 2-core machine these few hops between the main actor and the backend can wait minutes
/// behind the other tests (228 s once, beside a concurrent build): five minutes, as the other
/// hang guards.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct CollectionPerformAllTests {
    @Test func savesRunSeveralAtOnceButNoMoreThanMaxConcurrent() async {
        let backend = BatchOverlapSync(width: 2, expected: 5) { request throws(SyncError) in
            SyncResponse(
                status: 201,
                body: ["id": .int(Int.random(in: 1...1_000_000)), "title": request.body?["title"] ?? .null]
            )
        }
        let notes = Collection<Model>(url: "/notes", sync: backend)
        notes.add((1...5).map { Model(["title": .string("note \($0)")]) })
        var reports: [BatchProgress] = []
        let outcomes = await notes.saveAll(maxConcurrent: 2) { reports.append($0) }
        #expect(backend.peak == 2)
        #expect(outcomes.allSatisfy { $0.error == nil && !$0.model.isNew })
        let titles: [JSONValue?] = (1...5).map { .string("note \($0)") }
        #expect(outcomes.map { $0.model["title"] } == titles)
        #expect(reports.map(\.completed) == [1, 2, 3, 4, 5])
        let firstTitles: [JSONValue?] = ["note 1", "note 2"]
        #expect(Array(backend.requests.prefix(2)).map { $0.body?["title"] } == firstTitles)
    }

    @Test func fetchesApplyEachAnswerAndReportEachFailure() async {
        let backend = BatchOverlapSync(width: 3, expected: 3) { request throws(SyncError) in
            if request.url.path == "/notes/2" { throw .httpStatus(404, body: nil) }
            return SyncResponse(
                status: 200,
                body: ["id": .int(Int(request.url.lastPathComponent) ?? 0), "title": "fresh"]
            )
        }
        let notes = Collection<Model>(url: "/notes", sync: backend)
        notes.add([Model(["id": 1]), Model(["id": 2]), Model(["id": 3]), Model(["title": "unsaved"])])
        var changes: [String] = []
        for model in notes.models { model.on("change:title") { _ in changes.append(model.cid) } }
        let outcomes = await notes.performAll(.fetch, maxConcurrent: 3)
        #expect(outcomes.map { $0.model["id"] } == [1, 2, 3])
        #expect(outcomes.map { $0.error == nil } == [true, false, true])
        #expect(outcomes.map { $0.model["title"] } == ["fresh", nil, "fresh"])
        #expect(changes.count == 2)
        #expect(backend.peak == 3)
    }

    @Test func destroysRemoveTheModelsFromTheCollection() async {
        let backend = BatchOverlapSync(width: 2, expected: 2) { _ in SyncResponse(status: 204) }
        let notes = Collection<Model>(url: "/notes", sync: backend)
        notes.add([Model(["id": 1]), Model(["id": 2]), Model(["title": "new"])])
        var removed = 0
        notes.on("remove") { _ in removed += 1 }
        let outcomes = await notes.performAll(.destroy, maxConcurrent: 2)
        #expect(outcomes.map { $0.result.map(\.status) } == [.success(204), .success(204), .success(204)])
        #expect(notes.isEmpty)
        #expect(removed == 3)
        #expect(backend.requests.map(\.method) == [.delete, .delete])
        #expect(backend.peak == 2)
    }

    @Test func cancellingStopsTheModelsNotYetStarted() async {
        let backend = BatchGateSync()
        let notes = Collection<Model>(url: "/notes", sync: backend)
        notes.add((1...5).map { Model(["title": .string("note \($0)")]) })
        var reports: [BatchProgress] = []
        let batch = Task {
            let outcomes = await notes.saveAll(maxConcurrent: 2) { reports.append($0) }
            return (errors: outcomes.map(\.error), new: outcomes.map(\.model.isNew))
        }
        for await count in backend.arrived where count == 2 { break }
        batch.cancel()
        backend.open()
        let (errors, new) = await batch.value
        #expect(backend.requests.count == 2)
        #expect(Array(errors.suffix(3)) == [.cancelled, .cancelled, .cancelled])
        #expect(new.suffix(3).allSatisfy { $0 })
        #expect(reports.map(\.completed) == [1, 2, 3, 4, 5])
        #expect(reports.last?.failed ?? 0 >= 3)
    }
}
