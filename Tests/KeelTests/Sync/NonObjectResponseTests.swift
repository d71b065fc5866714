import Keel
import Testing

/// Returns no attributes for any response.
private final class IgnoresResponses: Model {
    override class var urlRoot: String? { "/notes" }

    override func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? { nil }
}

/// Responses that carry no attributes succeed without changing the model (Backbone's
/// "parse can return null" and #2606).
@MainActor
struct NonObjectResponseTests {
    @Test(arguments: [JSONValue.string("response"), .array([1, 2]), .int(7), .bool(true)])
    func saveWhoseServerAnswersANonObjectSucceedsWithoutChanges(body: JSONValue) async throws {
        let note = Model(["id": 1, "title": "Dune"])
        note.urlRoot = "/notes"
        note.sync = ScriptedSync(always: SyncResponse(status: 200, body: body))
        var events: [String] = []
        note.on("all") { events.append($0.name) }

        let response = try await note.save()

        #expect(response.body == body)
        #expect(note.attributes == ["id": 1, "title": "Dune"])
        #expect(events == ["request", "sync"])
        #expect(note.unsavedChanges == nil)
    }

    @Test func createWhoseServerAnswersAStringSucceeds() async throws {
        let notes = Collection<Model>(
            url: "/notes",
            sync: ScriptedSync(always: SyncResponse(status: 201, body: "response"))
        )
        var responses: [SyncResponse] = []
        let note = try await notes.create(["title": "Dune"], options: SyncOptions(onSuccess: { responses.append($0) }))
        #expect(responses.map(\.body) == ["response"])
        #expect(note["title"] == "Dune")
        #expect(notes.count == 1)
    }

    @Test func parseReturningNilMeansNoAttributes() async throws {
        let note = IgnoresResponses(["id": 1, "title": "Dune"])
        note.sync = ScriptedSync(always: SyncResponse(status: 200, body: ["id": 1, "title": "Server"]))
        try await note.fetch()
        try await note.save()
        #expect(note["title"] == "Dune")
    }

    @Test func collectionFetchOfANonListStillFailsAndKeepsTheModels() async throws {
        let notes = Collection<Model>(
            [["id": 1]],
            url: "/notes",
            sync: ScriptedSync(always: SyncResponse(status: 200, body: "maintenance"))
        )
        await #expect(throws: SyncError.self) { _ = try await notes.fetch() }
        #expect(notes.pluck("id") == [1])
    }
}
