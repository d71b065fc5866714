import Keel
import Testing

/// A main-actor view model that mirrors a model's title through its events.
@MainActor
private final class NoteViewModel {
    let note: Model
    private(set) var title = ""
    private(set) var changeCount = 0
    private let listener = EventEmitter()

    init(note: Model) {
        self.note = note
        title = note["title"]?.stringValue ?? ""
        // The closure is formed on the main actor, so it may touch main-actor state.
        listener.listenTo(note, "change:title") { [weak self] event in
            self?.title = event.value?.stringValue ?? ""
            self?.changeCount += 1
        }
    }

    func rename(_ title: String) {
        note["title"] = .string(title)
    }
}

/// A list of entries, owned by one isolation domain.
private final class Log {
    var entries: [String] = []
}

/// An actor that owns a model and a collection, and reacts to their events in its own
/// isolation domain.
private actor NoteStore {
    let notes = Collection<Model>()
    let draft = Model(["title": ""])
    // Handlers write to an object the actor owns: a closure that captured `self` weakly would
    // not be isolated to the actor, and one that captured it strongly would keep it alive.
    private let log = Log()

    func start() {
        notes.on("add remove") { [log] event in
            log.entries.append(event.name + ":" + (event.model?["title"]?.stringValue ?? ""))
        }
        draft.on("change:title") { [log] event in
            log.entries.append("draft:" + (event.value?.stringValue ?? ""))
        }
    }

    func add(_ title: String) -> Int {
        notes.add(["title": .string(title)])
        return notes.count
    }

    func removeFirst() {
        notes.shift()
    }

    func renameDraft(_ title: String) {
        draft["title"] = .string(title)
    }

    func entries() -> [String] { log.entries }

    /// Waits for the draft's next title inside the actor, through the async sequence.
    func nextDraftTitle(after title: String) async -> String? {
        let titles = draft.events("change:title")
        draft["title"] = .string(title)
        for await event in titles {
            return event.value?.stringValue
        }
        return nil
    }
}

/// Models, collections and their events used from a `@MainActor` type and from a custom
/// actor, in Swift 6 language mode.
struct EventIsolationTests {
    @MainActor
    @Test func mainActorViewModelFollowsItsModelsEvents() {
        let viewModel = NoteViewModel(note: Model(["title": "Groceries"]))
        #expect(viewModel.title == "Groceries")
        viewModel.rename("Errands")
        #expect(viewModel.title == "Errands")
        viewModel.note.set(["title": "Errands", "done": true])
        #expect(viewModel.changeCount == 1)
    }

    @MainActor
    @Test func mainActorCodeCanAwaitEvents() async {
        let notes = Collection<Model>()
        let added = notes.events("add")
        notes.add(["id": 1, "title": "Groceries"])
        var iterator = added.makeAsyncIterator()
        let event = await iterator.next()
        #expect(event?.model?["title"] == "Groceries")
    }

    @Test func actorOwnsModelsAndHandlesTheirEvents() async {
        let store = NoteStore()
        await store.start()
        #expect(await store.add("Groceries") == 1)
        #expect(await store.add("Taxes") == 2)
        await store.removeFirst()
        await store.renameDraft("Plan")
        #expect(await store.entries() == ["add:Groceries", "add:Taxes", "remove:Groceries", "draft:Plan"])
    }

    @Test func actorAwaitsEventsInItsOwnIsolation() async {
        let store = NoteStore()
        #expect(await store.nextDraftTitle(after: "Draft") == "Draft")
    }
}
