import Foundation
import Keel
import Testing

/// `fetchRequest`, `saveRequest` and `destroyRequest` build exactly the request the call
/// would send, in every wire format, without sending it or changing the model.
@MainActor
struct ModelRequestBuildingTests {
    /// A saved model of the dialect's class, with a backend that records requests and answers
    /// with the dialect's record.
    private func savedModel(_ dialect: ServerDataDialect) throws -> (Model, ScriptedSync) {
        let record = dialect.record(id: 1)
        let backend = ScriptedSync(always: SyncResponse(body: record))
        let model = dialect.modelType.init(record.objectValue ?? [:], options: ChangeOptions(parse: true))
        model.sync = backend
        return (model, backend)
    }

    @Test(arguments: ServerDataDialect.allCases)
    func eachBuiltRequestIsTheOneTheCallSends(_ dialect: ServerDataDialect) async throws {
        let (model, backend) = try savedModel(dialect)
        let fetch = try model.fetchRequest()
        try await model.fetch()
        #expect(backend.requests.last == fetch)
        #expect(fetch.method == .read)

        let save = try #require(try model.saveRequest(["title": "Errands"]))
        #expect(model["title"] != "Errands")
        try await model.save(["title": "Errands"])
        #expect(backend.requests.last == save)

        let patch = try #require(try model.saveRequest(["title": "Oat milk"], patch: true))
        try await model.save(["title": "Oat milk"], patch: true)
        #expect(backend.requests.last == patch)
        #expect(patch.method == .patch)

        let destroy = try #require(try model.destroyRequest())
        try await model.destroy()
        #expect(backend.requests.last == destroy)
        #expect(destroy.method == .delete)
    }

    @Test func aNewModelsSaveRequestCreatesAndItsDestroyRequestIsNil() throws {
        let note = ServerDataDialect.Rails.Note(["title": "Milk", "dueAt": "2026-12-01"])
        let request = try #require(try note.saveRequest())
        #expect(request.method == .create)
        #expect(request.url.absoluteString == "/notes")
        #expect(request.body == ["note": ["title": "Milk", "due_at": "2026-12-01"]])
        #expect(try note.destroyRequest() == nil)
    }

    @Test func aSavedModelsPatchWithNothingToSendIsNil() async throws {
        let note = ServerDataDialect.Rails.Note(["id": 4, "title": "Milk"])
        note.sync = ScriptedSync(always: SyncResponse(body: ["note": ["id": 4, "title": "Milk"]]))
        try await note.fetch()
        var events = 0
        note.on("all") { _ in events += 1 }
        #expect(try note.saveRequest(patch: true) == nil)
        #expect(events == 0)
        #expect(try note.saveRequest(["title": "Milk"], patch: true)?.body == ["note": ["title": "Milk"]])
    }

    @Test func aModelWithoutAURLThrowsMissingURL() {
        let comment = ServerDataDialect.Plain.Comment(["id": 1])
        #expect(throws: SyncError.self) { try comment.fetchRequest() }
    }
}
