import Keel
import Testing

/// The natural way to watch events with `for await`: a task started just before the
/// operation it should see.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct EventStreamTimingTests {
    @Test func aStreamStartedInATaskJustBeforeCreateSeesTheAdd() async throws {
        let notes = Collection<Model>(url: "/notes", sync: InMemorySync())
        let watcher = Task { @MainActor in
            var names: [String] = []
            for await event in notes.events("add") { names.append(event.name) }
            return names
        }
        try await notes.create(["title": "Dune"])
        watcher.cancel()
        #expect(await watcher.value == ["add"])
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
            for await event in notes.events("add destroy") { names.append(event.name) }
            return names
        }
        try await notes.fetch()
        let first = try #require(notes.first)
        let destroyWatcher = Task { @MainActor in
            var names: [String] = []
            for await event in first.events("destroy") { names.append(event.name) }
            return names
        }
        try await first.destroy()
        watcher.cancel()
        destroyWatcher.cancel()
        #expect(await watcher.value == ["add", "destroy"])
        #expect(await destroyWatcher.value == ["destroy"])
    }
}
