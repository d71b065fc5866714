import Keel
import Testing

/// The backend the finder tests' classes use.
private let finderBackend = InMemorySync(records: [
    "/finder-notes": [["id": 1, "title": "Dune", "done": false], ["id": 2, "title": "Emma", "done": true]]
])

/// A class with its URL and backend, as NSRails' `remoteAll` and `remoteObjectWithID:` need.
private final class FinderNote: Model {
    override class var urlRoot: String? { "/finder-notes" }
    override class var sync: (any Sync)? { finderBackend }
}

/// Unwraps `{"note": {...}}`, to show that `remoteAttributes` is the body before `parse`.
private final class WrappedNote: Model {
    override class var urlRoot: String? { "/wrapped" }

    override func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? {
        response["note"]?.objectValue
    }
}

@MainActor
struct ModelFinderTests {
    @Test func findLoadsOneRecordOfTheClass() async throws {
        let note = try await FinderNote.find(2)
        #expect(note["title"] == "Emma")
        #expect(note.unsavedChanges == nil)
    }

    @Test func findOfAMissingRecordThrows404() async throws {
        await #expect {
            _ = try await FinderNote.find(99)
        } throws: { error in
            (error as? SyncError)?.status == 404
        }
    }

    @Test func allLoadsEveryRecordAsModelsOfTheClass() async throws {
        let notes: [FinderNote] = try await FinderNote.all()
        #expect(notes.map { $0["title"] } == ["Dune", "Emma"])
    }

    @Test func allPassesTheQuery() async throws {
        let done = try await FinderNote.all(query: ["done": "true"])
        #expect(done.map(\.id) == [2])
    }

    @Test func foundModelsCanBeSavedOnTheirOwn() async throws {
        let notes = try await FinderNote.all()
        let dune = try #require(notes.first)
        try await dune.save(["done": true], patch: true)
        #expect(finderBackend.requests.last?.path == "/finder-notes/1")
    }

    @Test func aClassWithoutURLCannotFind() async throws {
        await #expect(throws: SyncError.self) { _ = try await Model.all() }
    }

    @Test func remoteAttributesIsTheLastResponseBeforeParse() async throws {
        let note = WrappedNote(["id": 3])
        note.sync = ScriptedSync(always: SyncResponse(body: ["note": ["id": 3, "title": "Dune"], "meta": 1]))
        #expect(note.remoteAttributes == nil)
        try await note.fetch()
        #expect(note["title"] == "Dune")
        #expect(note.remoteAttributes == ["note": ["id": 3, "title": "Dune"], "meta": 1])
    }
}
