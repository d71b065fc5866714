import Foundation
import Keel
import KeelTestServer
import Testing

/// NSRails' `NSRNullRemoteIDException`: fetching a model that has no id, whose URL would be its
/// collection's, throws ``SyncError/missingID(model:)`` before anything is sent and changes
/// nothing; a URL the model or the call names explicitly is still fetched.
@MainActor
struct FetchWithoutIDTests {
    final class Note: Model {
        override class var urlRoot: String? { "/notes" }
    }

    enum Rails {
        final class Note: Model {
            override class var urlRoot: String? { "/notes" }
            override class var wireFormat: WireFormat { .rails }
        }
    }

    final class Settings: Model {
        override func url() throws(SyncError) -> String { "/settings" }
    }

    @Test func fetchOfANewModelThrowsMissingIDAndSendsNothing() async throws {
        let backend = ScriptedSync(always: SyncResponse(body: [["id": 1, "title": "other"]]))
        let note = Note(["title": "draft"])
        note.sync = backend
        let log = SyncEventLog()
        log.watch(note)

        await #expect(throws: SyncError.missingID(model: "Note")) { try await note.fetch() }
        #expect(throws: SyncError.missingID(model: "Note")) { try note.fetchRequest() }
        #expect(backend.requests.isEmpty)
        #expect(note.attributes == ["title": "draft"])
        #expect(log.entries.isEmpty)
    }

    @Test func fetchOfANewModelInACollectionThrowsMissingID() async throws {
        let backend = ScriptedSync(always: SyncResponse(body: []))
        let notes = Collection<Model>(url: "/notes", sync: backend)
        let note = try #require(notes.add(["title": "draft"]))

        await #expect(throws: SyncError.missingID(model: "Model")) { try await note.fetch() }
        #expect(backend.requests.isEmpty)
    }

    @Test func anExplicitURLIsFetchedWithoutAnID() async throws {
        let backend = ScriptedSync(always: SyncResponse(body: ["theme": "dark"]))
        let note = Note()
        note.sync = backend
        try await note.fetch(options: SyncOptions(url: "/notes/latest"))
        #expect(note["theme"] == "dark")

        let settings = Settings()
        settings.sync = backend
        try await settings.fetch()
        #expect(settings["theme"] == "dark")
        #expect(backend.requests.map(\.path) == ["/notes/latest", "/settings"])
    }

    @Test func descriptionSaysNothingWasSent() {
        #expect(
            SyncError.missingID(model: "Note").description
                == "Note has no id, so it cannot be fetched: its URL would be its collection's; nothing was sent"
        )
    }

    @Test func aNewRailsModelIsNotFetchedFromTheList() async throws {
        let backend = RESTSync(baseURL: try await RailsTestServer.shared.baseURL)
        let saved = Rails.Note(["title": "Listed"])
        saved.sync = backend
        try await saved.save()
        let note = Rails.Note(["title": "draft"])
        note.sync = backend

        await #expect(throws: SyncError.missingID(model: "Note")) { try await note.fetch() }
        #expect(note.attributes == ["title": "draft"])
        #expect(note.remoteAttributes == nil)
        try await saved.destroy()
    }
}
