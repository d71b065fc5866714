import Keel
import Testing

/// An actor whose method creates a note while a task it started just before watches it.
private actor NoteDesk {
    /// Creates a note on this actor, watching it from a task started just before the call.
    func createWatchingTheAdd() async throws -> [String] {
        try await createNoteWatchingTheAdd()
    }
}

/// Creates a note in the caller's isolation, watching it from a task started just before
/// the call in the same isolation.
private func createNoteWatchingTheAdd(isolation: isolated (any Actor)? = #isolation) async throws -> [String] {
    let notes = Collection<Model>(url: "/notes", sync: InMemorySync())
    let watcher = Task {
        _ = isolation
        var names: [String] = []
        for await event in notes.events("add") {
            names.append(event.name)
            break
        }
        return names
    }
    try await notes.create(["title": "Dune"])
    return await watcher.value
}

/// The natural way to watch events with `for await`: a task started just before the operation it
/// should see.
///
/// Each watcher stops after the last event it expects, instead of being cancelled when the
/// operation returns, which could drop an event it had not taken from the stream yet.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct EventStreamTimingTests {
    @Test func aStreamStartedInATaskJustBeforeCreateSeesTheAdd() async throws {
        let notes = Collection<Model>(url: "/notes", sync: InMemorySync())
        let watcher = Task { @MainActor in
            var names: [String] = []
            for await event in notes.events("add") {
                names.append(event.name)
                break
            }
            return names
        }
        try await notes.create(["title": "Dune"])
        #expect(await watcher.value == ["add"])
    }

    @Test func aStreamStartedInATaskJustBeforeCreateOnAnotherActorSeesTheAdd() async throws {
        #expect(try await NoteDesk().createWatchingTheAdd() == ["add"])
    }

    @Test func aStreamStartedJustBeforeCreateInANonisolatedFunctionOnTheCallersActorSeesTheAdd() async throws {
        #expect(try await createNoteWatchingTheAdd() == ["add"])
    }

    @Test func aStreamStartedInATaskJustBeforeCreateSeesEveryEventOfTheCreate() async throws {
        let notes = Collection<Model>(url: "/notes", sync: InMemorySync())
        let watcher = Task { @MainActor in
            var names: [String] = []
            for await event in notes.events("all") {
                names.append(event.name)
                if event.name == "sync" { break }
            }
            return names
        }
        let note = try await notes.create(["title": "Dune"])
        let names = await watcher.value
        #expect(names == ["add", "update", "request", "changeId", "change:id", "change", "sync"])
        #expect(note.id == 1)
    }

    @Test func aStreamStartedInATaskJustBeforeSaveSeesEveryEvent() async throws {
        let note = Model(["title": "Dune"])
        note.urlRoot = "/notes"
        note.sync = InMemorySync()
        let watcher = Task { @MainActor in
            var names: [String] = []
            for await event in note.events("all") {
                names.append(event.name)
                if event.name == "sync" { break }
            }
            return names
        }
        try await note.save(["title": "Dune Messiah"])
        #expect(
            await watcher.value == ["change:title", "change", "request", "changeId", "change:id", "change", "sync"]
        )
    }

    @Test func aStreamStartedInATaskJustBeforeFetchAndDestroySeesThem() async throws {
        let notes = Collection<Model>(url: "/notes", sync: InMemorySync(records: ["/notes": [["id": 1]]]))
        let watcher = Task { @MainActor in
            var names: [String] = []
            for await event in notes.events("add destroy") {
                names.append(event.name)
                if event.name == "destroy" { break }
            }
            return names
        }
        try await notes.fetch()
        let first = try #require(notes.first)
        let destroyWatcher = Task { @MainActor in
            var names: [String] = []
            for await event in first.events("destroy") {
                names.append(event.name)
                break
            }
            return names
        }
        try await first.destroy()
        #expect(await watcher.value == ["add", "destroy"])
        #expect(await destroyWatcher.value == ["destroy"])
    }
}
