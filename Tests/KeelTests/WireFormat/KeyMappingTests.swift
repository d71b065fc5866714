import Keel
import Testing

/// App names ↔ wire names, at every depth, with remote names for particular attributes.
struct KeyMappingTests {
    @Test func snakeCaseConvertsBothWays() {
        #expect(KeyConvention.snakeCase.wireName(for: "dueAt") == "due_at")
        #expect(KeyConvention.snakeCase.appName(for: "due_at") == "dueAt")
        #expect(KeyConvention.snakeCase.wireName(for: "avatarURL") == "avatar_url")
        #expect(KeyConvention.unchanged.wireName(for: "dueAt") == "dueAt")
    }

    @Test func remoteNamesWinOverTheConventionBothWays() {
        let keys = KeyMapping(.snakeCase, names: ["id": "nid", "body": "content"])
        #expect(keys.wireName(for: "id") == "nid")
        #expect(keys.appName(for: "nid") == "id")
        #expect(keys.wireName(for: "body") == "content")
        #expect(keys.appName(for: "content") == "body")
        #expect(keys.wireName(for: "createdAt") == "created_at")
    }
}

/// Flat app attributes read from and written to nested wire objects (RestKit's key-path
/// attribute mappings: `"author.name"` ↔ `authorName`).
@MainActor
struct KeyPathMappingTests {
    final class Note: Model {
        override class var urlRoot: String? { "/notes" }
        override class var wireFormat: WireFormat {
            var format = WireFormat.rails
            format.keys.paths = ["authorName": "author.name", "city": "author.address.city"]
            return format
        }
    }

    @Test func aKeyPathNamesTheAttributeBothWays() {
        let keys = KeyMapping(.snakeCase, paths: ["authorName": "author.name"])
        #expect(keys.wireName(for: "authorName") == "author.name")
        #expect(keys.appName(for: "author.name") == "authorName")
        #expect(keys.wireName(for: "createdAt") == "created_at")
    }

    @Test func aRecordIsReadFromAndWrittenToNestedObjects() async throws {
        let backend = ScriptedSync { _ in
            SyncResponse(body: [
                "note": [
                    "id": 1, "due_at": "2026-01-01",
                    "author": ["name": "Ann", "author_id": 3, "address": ["city": "Oslo"]],
                ]
            ])
        }
        let note = Note(["id": 1])
        note.sync = backend

        try await note.fetch()
        #expect(
            note.attributes == [
                "id": 1, "dueAt": "2026-01-01", "author": ["authorId": 3], "authorName": "Ann", "city": "Oslo",
            ]
        )
        try await note.save(["authorName": "Bo"])

        #expect(
            backend.requests.last?.body == [
                "note": [
                    "due_at": "2026-01-01",
                    "author": ["author_id": 3, "name": "Bo", "address": ["city": "Oslo"]],
                ]
            ]
        )
    }

    @Test func aMissingOrNonObjectContainerLeavesTheAttributeOut() async throws {
        let bodies: [JSONValue] = [["id": 1], ["id": 1, "author": "Ann"], ["id": 1, "author": ["name": nil]]]
        var fetched: [Attributes] = []
        for body in bodies {
            let note = Note(["id": 1])
            note.sync = ScriptedSync(always: SyncResponse(body: ["note": body]))
            try await note.fetch()
            fetched.append(note.attributes)
        }
        #expect(fetched == [["id": 1], ["id": 1, "author": "Ann"], ["id": 1, "authorName": nil]])
    }

    @Test func serverErrorsUnderAKeyPathNameTheAttribute() async throws {
        let note = Note(["id": 3, "authorName": ""])
        note.sync = ScriptedSync(
            failing: SyncError(
                failing: SyncResponse(status: 422, body: ["author.name": ["can't be blank"], "due_at": ["is invalid"]])
            )
        )
        await #expect(throws: SyncError.self) { try await note.save(wait: true) }
        #expect(note.validationError?["authorName"] == ["can't be blank"])
        #expect(note.validationError?["dueAt"] == ["is invalid"])
    }
}
