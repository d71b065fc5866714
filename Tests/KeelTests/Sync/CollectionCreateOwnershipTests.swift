import Foundation
import Keel
import Testing

/// Rejects an empty title.
private final class Titled: Model {
    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        attributes["title"]?.stringValue?.isEmpty == false ? nil : ["title": ["can't be blank"]]
    }
}

/// What a model created by a collection keeps: nothing when local validation rejects it,
/// and its backend and URL when the collection is released.
@MainActor
struct CollectionCreateOwnershipTests {
    @Test func createThatFailsLocalValidationLeavesNoModelBehind() async throws {
        let backend = InMemorySync()
        let notes = Collection<Titled>(url: "/notes", sync: backend)
        var events: [String] = []
        notes.on("all") { events.append($0.name) }

        await #expect(throws: SyncError.self) { _ = try await notes.create(["title": ""]) }

        #expect(notes.isEmpty)
        #expect(backend.requests.isEmpty)
        #expect(events == ["add", "update", "invalid", "error", "remove", "update"])
    }

    @Test func createThatFailsOnTheServerKeepsTheModelAsBackboneDoes() async throws {
        let notes = Collection<Titled>(url: "/notes", sync: ScriptedSync(failing: .httpStatus(500, body: nil)))
        await #expect(throws: SyncError.self) { _ = try await notes.create(["title": "Dune"]) }
        #expect(notes.count == 1)
    }

    @Test func aModelKeepsItsBackendAndURLWhenItsCollectionIsReleased() async throws {
        let backend = InMemorySync()
        var notes: Collection<Titled>? = Collection<Titled>(url: "/notes", sync: backend)
        notes?.baseURL = URL(string: "https://api.example.com/v1")
        let note = try #require(try await notes?.create(["title": "Dune"]))
        notes = nil

        #expect(note.collection == nil)
        #expect(try note.url() == "/notes/1")
        #expect(note.resolvedBaseURL?.absoluteString == "https://api.example.com/v1")
        try await note.save(["title": "Dune Messiah"])
        #expect(backend.requests.last?.method == .update)
        #expect(backend.requests.last?.path == "/v1/notes/1")
    }

    @Test func aModelRemovedFromItsCollectionDoesNotKeepItsURL() throws {
        let notes = Collection<Titled>([["id": 1, "title": "Dune"]], url: "/notes")
        let note = try #require(notes.first)
        notes.remove(note)
        #expect(throws: SyncError.self) { try note.url() }
    }

    @Test func aModelInALiveCollectionFollowsItsCurrentURL() throws {
        let notes = Collection<Titled>([["id": 1, "title": "Dune"]], url: "/notes")
        let note = try #require(notes.first)
        notes.url = "/archive"
        #expect(try note.url() == "/archive/1")
    }
}
