import Keel
import Testing

/// Extra parameters merged into the bodies of saves: per call with
/// ``SyncOptions/bodyParameters`` and per class with ``WireFormat/bodyParameters``
/// (RestKit's parameters reverse-merged into an object's parameterization).
@MainActor
struct BodyParametersTests {
    final class Note: Model {
        override class var urlRoot: String? { "/notes" }
        override class var wireFormat: WireFormat {
            var format = WireFormat.rails
            format.bodyParameters = ["api_version": 2, "source": "app"]
            return format
        }
    }

    @Test func parametersGoBesideTheRootKeyAndTheCallsWinOverTheClasss() async throws {
        let backend = ScriptedSync { _ in SyncResponse(status: 201, body: ["note": ["id": 1, "title": "A"]]) }
        let note = Note(["title": "A"])
        note.sync = backend

        try await note.save(options: SyncOptions(bodyParameters: ["source": "widget", "invite_code": "x"]))
        try await note.save()

        #expect(
            backend.requests.map(\.body) == [
                ["note": ["title": "A"], "api_version": 2, "source": "widget", "invite_code": "x"],
                ["note": ["title": "A"], "api_version": 2, "source": "app"],
            ]
        )
        #expect(note["inviteCode"] == nil)
        #expect(note.attributes == ["id": 1, "title": "A"])
    }

    @Test func theRecordWinsOverAParameterOfTheSameName() async throws {
        let backend = ScriptedSync { _ in SyncResponse(status: 201, body: ["id": 1]) }
        let note = Model(["title": "A"])
        note.urlRoot = "/notes"
        note.sync = backend
        try await note.save(options: SyncOptions(bodyParameters: ["title": "B", "draft": true]))
        #expect(backend.requests.first?.body == ["title": "A", "draft": true])
    }

    @Test func anExplicitBodyAndBodilessRequestsGetNoParameters() async throws {
        let backend = ScriptedSync { _ in SyncResponse(body: ["id": 1]) }
        let note = Note(["id": 1, "title": "A"])
        note.sync = backend
        try await note.save(options: SyncOptions(body: ["exact": true], bodyParameters: ["extra": 1]))
        try await note.fetch(options: SyncOptions(bodyParameters: ["extra": 1]))
        #expect(backend.requests.map(\.body) == [["exact": true], nil])
    }
}
