import Foundation
import Keel
import KeelSQLite
import Testing

/// Models whose wire format wraps request bodies in a root key (Rails' `{"note": {…}}`)
/// work with the local stores: a store keeps the record without its root key, so the model
/// reads back what it saved.
struct WrappedFormatStoreTests {
    final class RailsNote: Model {
        override class var urlRoot: String? { "/notes" }
        override class var wireFormat: WireFormat { .rails }
    }

    @Test(arguments: [Backend.inMemory, .sqlite, .sqliteInMemory, .dictionaryStore])
    func aRailsModelSavesFetchesAndPatchesThroughAStore(_ backend: Backend) async throws {
        try await backend.withSync { (sync) async throws in
            let note = RailsNote(["title": "Groceries", "dueAt": "2026-11-24"])
            note.sync = sync
            try await note.save()
            #expect(note.id == 1)
            #expect(note.attributes == ["title": "Groceries", "dueAt": "2026-11-24", "id": 1])

            let stored = try await sync.send(.read, "/notes/1")
            #expect(stored.body == ["title": "Groceries", "due_at": "2026-11-24", "id": 1], "kept without its root")

            try await note.save(["title": "Shopping"], patch: true)
            let copy = RailsNote(["id": 1])
            copy.sync = sync
            try await copy.fetch()
            #expect(copy.attributes == ["id": 1, "title": "Shopping", "dueAt": "2026-11-24"])

            let notes = Collection<RailsNote>(url: "/notes", sync: sync)
            try await notes.fetch()
            #expect(notes.map(\.attributes) == [copy.attributes])
        }
    }

    @Test func theRequestCarriesTheRootKeyItsBodyIsWrappedIn() async throws {
        let recorder = RecordingSync()
        let note = RailsNote(["title": "A"])
        note.sync = recorder
        try await note.save()
        let request = try #require(recorder.requests.first)
        #expect(request.rootKey == "rails_note")
        #expect(request.body == ["rails_note": ["title": "A"]])
        #expect(request.unwrappedBody == ["title": "A"])

        let plain = Note(["title": "A"])
        plain.sync = recorder
        try await plain.save()
        #expect(recorder.requests.last?.rootKey == nil)
        #expect(recorder.requests.last?.unwrappedBody == ["title": "A"])
    }

    @Test func aBodyThatIsNotWrappedInItsRootKeyIsUsedAsItIs() {
        var request = SyncRequest(method: .create, url: URL(string: "/notes")!, body: ["note": "text", "id": 1])
        request.rootKey = "note"
        #expect(request.unwrappedBody == ["note": "text", "id": 1])
        request.body = ["note": ["title": "A"], "id": 1]
        #expect(request.unwrappedBody == ["note": ["title": "A"], "id": 1])
    }
}

/// A backend that records every request and answers it with its body and an id.
final class RecordingSync: Sync, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [SyncRequest] = []

    var requests: [SyncRequest] { lock.withLock { recorded } }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        lock.withLock { recorded.append(request) }
        var record = request.unwrappedBody?.objectValue ?? [:]
        record["id"] = 1
        return SyncResponse(status: 201, body: .object(record))
    }
}
