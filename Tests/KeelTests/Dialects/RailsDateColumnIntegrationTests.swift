import Foundation
import Keel
import KeelTestServer
import Testing

/// A Rails `date` column (`due_on`) through a per-attribute date format: sent and received as
/// `"2026-11-28"`, read as a `Date`.
@MainActor
struct RailsDateColumnIntegrationTests {
    final class Note: Model {
        static let dueOn = AttributeKey<Date>("dueOn")
        override class var urlRoot: String? { "/notes" }
        override class var wireFormat: WireFormat {
            var format = WireFormat.rails
            format.dateFormats["dueOn"] = .calendarDate
            return format
        }
    }

    private func rails() async throws -> RESTSync {
        RESTSync(baseURL: try await RailsTestServer.shared.baseURL)
    }

    @Test func aDateColumnTravelsAsACalendarDate() async throws {
        let notes = Collection<Note>(url: "/notes", sync: try await rails())
        let note = try await notes.create(["title": "Taxes", "dueOn": "2026-11-28T00:00:00Z"])
        #expect(note.remoteAttributes?["note"]?["due_on"] ?? note.remoteAttributes?["due_on"] == "2026-11-28")
        #expect(note[Note.dueOn] == Date(timeIntervalSince1970: 1_795_824_000))
        note[Note.dueOn] = Date(timeIntervalSince1970: 1_795_824_000 + 86_400 + 3600)
        try await note.save()
        let fetched = Note(["id": note.id ?? nil])
        fetched.sync = try await rails()
        try await fetched.fetch()
        #expect(fetched["dueOn"] == "2026-11-29T00:00:00Z")
        #expect(fetched.remoteAttributes?["due_on"] ?? fetched.remoteAttributes?["note"]?["due_on"] == "2026-11-29")
    }
}
