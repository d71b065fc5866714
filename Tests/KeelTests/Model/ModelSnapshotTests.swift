import Foundation
import Keel
import Testing

/// A model archived as a `ModelSnapshot` (NSRails' `NSCoding`) and restored with its
/// attributes, unsaved changes and remote attributes; a snapshot of another class is refused.
@MainActor
struct ModelSnapshotTests {
    final class Note: Model {
        override class var urlRoot: String? { "/notes" }
    }

    final class User: Model {}

    @Test func aSnapshotThroughJSONRestoresAttributesUnsavedChangesAndRemoteAttributes() async throws {
        let note = Note(["id": 1])
        note.sync = ScriptedSync { _ in SyncResponse(body: ["id": 1, "title": "Milk", "legacy": true]) }
        try await note.fetch()
        note["title"] = "Bread"

        let data = try JSONEncoder().encode(note.snapshot)
        let restored = try Note(snapshot: JSONDecoder().decode(ModelSnapshot.self, from: data))
        #expect(restored.attributes == note.attributes)
        #expect(restored.unsavedChanges == ["title": "Bread"])
        #expect(restored.remoteAttributes == ["id": 1, "title": "Milk", "legacy": true])
        #expect(restored.cid != note.cid)
        #expect(try restored.url() == "/notes/1")
    }

    @Test func aNewModelsSnapshotRestoresANewModel() throws {
        let restored = try Note(snapshot: Note(["title": "Draft"]).snapshot)
        #expect(restored.isNew)
        #expect(restored.unsavedChanges == ["title": "Draft"])
        #expect(restored.remoteAttributes == nil)
    }

    @Test func aSnapshotOfAnotherClassIsRefused() {
        let snapshot = User(["id": 2]).snapshot
        #expect(throws: ModelSnapshotError.classMismatch(expected: String(reflecting: Note.self), found: snapshot.modelClass)) {
            _ = try Note(snapshot: snapshot)
        }
    }
}
