import Keel
import Testing

/// Records the change options its hooks receive.
private final class HookedNote: Model {
    override class var urlRoot: String? { "/notes" }
    var validatedWith: [ChangeOptions] = []
    var parsedWith: [ChangeOptions] = []

    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        validatedWith.append(options)
        return nil
    }

    override func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? {
        parsedWith.append(options)
        return response.objectValue
    }
}

@MainActor
struct OptionsByConcernTests {
    @Test func updateOptionsReadAndWriteTheirChangeOptions() {
        var options = UpdateOptions(merge: true, silent: true, validate: false, custom: ["a": 1])
        #expect(options.change.silent)
        #expect(options.change.validate == false)
        #expect(options.change["a"] == 1)
        options.parse = true
        options["b"] = 2
        #expect(options.change.parse == true)
        #expect(options.change.custom == ["a": 1, "b": 2])
        #expect(options.merge == true)
    }

    @Test func syncOptionsReadAndWriteTheirUpdateAndChangeOptions() {
        var options = SyncOptions(wait: true, remove: false, silent: true, parse: false, custom: ["a": 1])
        #expect(options.update.remove == false)
        #expect(options.change.silent)
        #expect(options.update.change.parse == false)
        options.merge = false
        options.validate = true
        #expect(options.update.merge == false)
        #expect(options.change.validate == true)
        #expect(options["a"] == 1)
    }

    @Test func copiesOfOptionsDoNotShareCustomValues() {
        let original = ChangeOptions(custom: ["source": "form"])
        var copy = original
        copy["source"] = "socket"
        #expect(original["source"] == "form")
        #expect(copy["source"] == "socket")
    }

    @Test func aSaveHandsItsChangeOptionsToHooksEventsAndTheBackend() async throws {
        let backend = InMemorySync()
        let note = HookedNote()
        note.sync = backend
        var eventSources: [String: JSONValue?] = [:]
        note.on("all") { event in eventSources[event.name] = event.options["source"] }

        try await note.save(["title": "Dune"], options: SyncOptions(custom: ["source": "form"]))

        #expect(note.validatedWith.allSatisfy { $0["source"] == "form" })
        #expect(note.parsedWith.map { $0["source"] } == ["form"])
        #expect(eventSources["request"] == "form")
        #expect(eventSources["change:title"] == "form")
        #expect(eventSources["sync"] == "form")
        #expect(backend.requests.first?.context["source"] == "form")
    }

    @Test func aCollectionFetchAppliesItsUpdateOptions() async throws {
        let backend = InMemorySync(records: ["/notes": [["id": 1, "title": "new"]]])
        let notes = Collection<HookedNote>([["id": 2, "title": "kept"]], url: "/notes", sync: backend)
        var addSources: [JSONValue?] = []
        notes.on("add") { event in addSources.append(event.options["source"]) }

        try await notes.fetch(options: SyncOptions(remove: false, custom: ["source": "refresh"]))

        #expect(notes.pluck("id") == [2, 1])
        #expect(addSources == ["refresh"])
    }

    @Test func aCollectionSetPassesItsChangeOptionsToMergedModels() {
        let notes = Collection<HookedNote>([["id": 1, "title": "old"]])
        let note = notes.at(0)
        note?.validatedWith.removeAll()
        var changeSources: [JSONValue?] = []
        note?.on("change:title") { event in changeSources.append(event.options["source"]) }

        notes.set([["id": 1, "title": "new"]], options: UpdateOptions(validate: true, custom: ["source": "socket"]))

        #expect(changeSources == ["socket"])
        #expect(note?.validatedWith.map { $0["source"] } == ["socket"])
    }
}
