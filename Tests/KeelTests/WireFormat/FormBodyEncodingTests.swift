import Keel
import KeelTestServer
import Testing

/// A wire format whose model bodies go as URL-encoded forms (RestKit's
/// `requestSerializationMIMEType`), checked on the request and against the stock Rails app.
@MainActor
struct FormBodyEncodingTests {
    final class Note: Model {
        override class var urlRoot: String? { "/notes" }
        override class var wireFormat: WireFormat {
            var format = WireFormat.rails
            format.bodyEncoding = .formURLEncoded
            return format
        }
    }

    @Test func aSaveSendsAFormInTheFormatsNotationAndKeepsTheJSONBody() async throws {
        let backend = ScriptedSync { _ in SyncResponse(status: 201, body: ["note": ["id": 1]]) }
        let note = Note(["title": "Milk", "tags": ["a", "b"]])
        note.sync = backend

        try await note.save()
        try await note.fetch()
        var explicit = SyncOptions()
        explicit.requestBody = .json(["exact": true])
        try await note.save(options: explicit)

        let requests = backend.requests
        #expect(
            requests.first?.requestBody
                == .formURLEncoded([("note[title]", "Milk"), ("note[tags][]", "a"), ("note[tags][]", "b")])
        )
        #expect(requests.first?.body == ["note": ["title": "Milk", "tags": ["a", "b"]]])
        #expect(Array(requests.map(\.requestBody).dropFirst()) == [nil, .json(["exact": true])])
    }

    @Test func railsCreatesAndUpdatesANoteFromForms() async throws {
        let rails = RESTSync(baseURL: try await RailsTestServer.shared.baseURL)
        let note = Note(["title": "Milk & honey", "done": false, "priority": "2.5"])
        note.sync = rails

        try await note.save()
        try await note.save(["done": true, "title": "Oat milk"])

        let fetched = Note(["id": note.id ?? nil])
        fetched.sync = rails
        try await fetched.fetch()
        #expect(fetched["title"] == "Oat milk")
        #expect(fetched["done"] == true)
        #expect(fetched["priority"] == "2.5")
    }
}
