import Keel
import KeelTestServer
import Testing

/// A named route with its method against the stock Rails app: a member action
/// (`PATCH /notes/:id/complete`) answers with the note, which the model takes.
@MainActor
struct NamedRouteActionServerTests {
    final class Note: Model {
        override class var urlRoot: String? { "/notes" }
        override class var wireFormat: WireFormat { .rails }
        override class var routes: Routes {
            Routes(named: ["complete": Route("/notes/:id/complete", method: .patch)])
        }
    }

    @Test func aRailsMemberActionCompletesASavedNote() async throws {
        let rails = RESTSync(baseURL: try await RailsTestServer.shared.baseURL)
        let note = Note(["title": "Milk"])
        note.sync = rails
        try await note.save()
        #expect(note["done"] == false)

        try await note.perform(route: "complete")

        #expect(note["done"] == true)
        let fetched = Note(["id": note.id ?? nil])
        fetched.sync = rails
        try await fetched.fetch()
        #expect(fetched["done"] == true)
    }
}
