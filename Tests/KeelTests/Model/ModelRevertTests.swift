import Keel
import Testing

/// `revert()` restores the server's state of a model after local changes.
struct ModelRevertTests {
    private func synced() async throws -> Model {
        let server = InMemorySync(records: ["/notes": [["id": 1, "title": "Milk", "rank": 1]]])
        let note = Model(["id": 1])
        note.urlRoot = "/notes"
        note.sync = server
        try await note.fetch()
        return note
    }

    @Test func changedAndAddedAttributesReturnToTheServersValuesWithEvents() async throws {
        let note = try await synced()
        note.set(["title": "Eggs", "extra": true])
        var events: [String] = []
        note.on("all") { events.append($0.name) }
        #expect(note.revert())
        #expect(note["title"] == "Milk" && !note.has("extra") && note["rank"] == 1)
        #expect(note.unsavedChanges == nil)
        #expect(events.contains("change:title") && events.contains("change:extra") && events.contains("change"))
    }

    @Test func aSilentRevertEmitsNothing() async throws {
        let note = try await synced()
        note["title"] = "Eggs"
        var events = 0
        note.on("all") { _ in events += 1 }
        note.revert(silent: true)
        #expect(note["title"] == "Milk" && events == 0)
    }

    @Test func aModelThatWasNeverSyncedIsLeftAsItIs() {
        let note = Model(["title": "Draft"])
        #expect(!note.revert())
        #expect(note["title"] == "Draft")
    }

    @Test func revertSkipsValidationAndKeepsTheValidationError() async throws {
        let server = InMemorySync(records: ["/required": [["id": 1, "title": "Milk"]]])
        let todo = RequiredTitleTodo(["id": 1])
        todo.sync = server
        try await todo.fetch()
        todo.set(["title": ""], validate: false)
        #expect(!todo.isValid())
        #expect(todo.revert())
        #expect(todo["title"] == "Milk")
        #expect(todo.validationError != nil)
    }
}
