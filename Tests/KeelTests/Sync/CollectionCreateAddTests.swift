import Keel
import Testing

/// How `create` adds the model it makes: appended and indexed at once with `add` and `update`
/// when nothing else can happen, and through the general update otherwise (a present id, a
/// comparator, a model already in the collection), with the same events and order either way.
@MainActor
struct CollectionCreateAddTests {
    @Test func aCreatedModelIsAppendedBehindThePresentOnesWithAddAndUpdate() async throws {
        let notes = Collection<Model>(url: "/notes", sync: InMemorySync())
        notes.add([["title": "a"], ["title": "b"]])
        var events: [String] = []
        var addIndex: Int?? = .none
        var added: [Model] = []
        notes.on("add") { event in
            events.append("add")
            addIndex = .some(event.index)
        }
        notes.on("update") { event in
            events.append("update")
            added = event.changes?.added ?? []
        }

        let note = try await notes.create(["title": "c"])

        #expect(notes.models.map { $0["title"] } == ["a", "b", "c"])
        #expect(events == ["add", "update"])
        #expect(addIndex == .some(nil))
        #expect(added.count == 1 && added.first === note)
        #expect(notes.get(note as Model) === note)
        #expect(notes.get(1) === note)
    }

    @Test func aModelListeningToItsOwnAddHearsIt() async throws {
        let notes = Collection<Model>(url: "/notes", sync: InMemorySync())
        let note = Model(["title": "a"])
        var heard: [String] = []
        note.on("add") { event in heard.append(event.collection === notes ? "add" : "other") }

        try await notes.create(note)

        #expect(heard == ["add"])
        #expect(notes.models.first === note)
    }

    @Test func aSilentCreateAddsWithoutEvents() async throws {
        let notes = Collection<Model>(url: "/notes", sync: InMemorySync())
        var events: [String] = []
        notes.on("add update") { event in events.append(event.name) }

        var options = SyncOptions()
        options.silent = true
        try await notes.create(["title": "a"], options: options)

        #expect(events.isEmpty)
        #expect(notes.count == 1)
    }

    @Test func aCreateWithThePresentModelsIDDoesNotAddASecondModel() async throws {
        let notes = Collection<Model>(url: "/notes", sync: InMemorySync())
        let present = try #require(notes.add(["id": 1, "title": "present"]))
        var events: [String] = []
        notes.on("add update") { event in events.append(event.name) }

        let created = try await notes.create(["id": 1, "title": "created"])

        #expect(notes.count == 1)
        #expect(notes.get(1) === present)
        #expect(created !== present)
        #expect(events.isEmpty)
    }

    @Test func aCreateIntoASortedCollectionTakesItsPlace() async throws {
        let notes = Collection<Model>(url: "/notes", sync: InMemorySync())
        notes.comparator = .attribute("title")
        notes.add([["title": "a"], ["title": "c"]])

        try await notes.create(["title": "b"])

        #expect(notes.models.map { $0["title"] } == ["a", "b", "c"])
    }

    @Test func creatingAModelAlreadyInTheCollectionKeepsOneCopy() async throws {
        let notes = Collection<Model>(url: "/notes", sync: InMemorySync())
        let note = try #require(notes.add(["title": "a"]))

        try await notes.create(note)

        #expect(notes.count == 1)
        #expect(notes.models.first === note)
    }

    @Test func aCreateAfterRemovalsFromTheMiddleAppendsInOrder() async throws {
        let notes = Collection<Model>(url: "/notes", sync: InMemorySync())
        let added = notes.add((0..<6).map { ["title": .string("n\($0)")] })
        notes.remove(added[2])
        notes.remove(added[3])

        try await notes.create(["title": "last"])

        #expect(notes.models.map { $0["title"] } == ["n0", "n1", "n4", "n5", "last"])
        #expect(notes.index(of: notes.models[4]) == 4)
    }
}
