import Foundation
import Keel
import KeelSQLite
import Testing

/// One live model per record (NSRails' find-or-insert by remote id).
struct IdentityMapTests {
    /// A store with three notes.
    private func seededStore() async throws -> SQLiteSync {
        let store = try SQLiteSync.inMemory()
        for title in ["Groceries", "Taxes", "Garden"] {
            try await store.send(
                .create,
                "/notes",
                body: ["title": .string(title), "starred": .bool(title != "Taxes")]
            )
        }
        return store
    }

    private func notes(_ map: IdentityMap, _ store: SQLiteSync) -> Collection<Note> {
        Collection<Note>(factory: map.factory(for: Note.self, collection: "/notes"), url: "/notes", sync: store)
    }

    // MARK: - Find or insert

    @Test func loadingARecordAgainReturnsTheLiveInstanceWithTheNewAttributes() {
        let map = IdentityMap()
        let first = map.model(Note.self, collection: "/notes", attributes: ["id": 1, "title": "A"])
        let again = map.model(Note.self, collection: "/notes", attributes: ["id": 1, "title": "B"])
        let other = map.model(Note.self, collection: "/notes", attributes: ["id": 2, "title": "C"])

        #expect(first === again)
        #expect(first !== other)
        #expect(first["title"] == "B")
        #expect(map.count == 2)
    }

    @Test func collectionPathsAndIDsAreNormalized() {
        let map = IdentityMap()
        let note = map.model(Note.self, collection: "/notes", attributes: ["id": 7])

        #expect(map.existing(Note.self, id: 7, in: "notes/") === note)
        #expect(map.existing(Note.self, id: 7.0, in: "/notes") === note)
        #expect(map.existing(Note.self, id: 7, in: "/tags") == nil)
    }

    @Test func twoCollectionFetchesShareInstancesAndEditsShowInBoth() async throws {
        let store = try await seededStore()
        let map = IdentityMap()
        let all = notes(map, store)
        let starred = notes(map, store)

        try await all.fetch()
        try await starred.fetch(options: SyncOptions(query: ["starred": "true"]))
        #expect(all.count == 3)
        #expect(starred.count == 2)
        let groceries = try #require(all.get(1))
        #expect(starred.get(1) === groceries)
        #expect(starred.get(3) === all.get(3))

        var changes: [String] = []
        let subscription = starred.on("change:title") { event in
            changes.append(event.value?.stringValue ?? "")
        }
        defer { subscription.cancel() }
        groceries["title"] = "Weekly groceries"
        #expect(starred.get(1)?["title"] == "Weekly groceries")
        #expect(changes == ["Weekly groceries"])
    }

    @Test func aModelFetchAndACollectionFetchShareTheInstance() async throws {
        let store = try await seededStore()
        let map = IdentityMap()

        let found = try #require(try await map.find(Note.self, id: 2, in: "/notes", from: store))
        let all = notes(map, store)
        try await all.fetch()

        #expect(all.get(2) === found)
        try await store.send(.patch, "/notes/2", body: ["title": "Taxes 2026"])
        let again = try await map.find(Note.self, id: 2, in: "/notes", from: store)
        #expect(again === found)
        #expect(found["title"] == "Taxes 2026")
    }

    @Test func findReturnsNilForAMissingRecord() async throws {
        let store = try await seededStore()
        let map = IdentityMap()
        #expect(try await map.find(Note.self, id: 99, in: "/notes", from: store) == nil)
        #expect(map.count == 0)
    }

    @Test func aFoundModelCanBeSavedAndDestroyedRightAway() async throws {
        let store = try await seededStore()
        let map = IdentityMap()
        let plain = try #require(try await map.find(Model.self, id: 1, in: "/notes", from: store))

        try await plain.save(["title": "Renamed"], patch: true)
        #expect(try await store.send(.read, "/notes/1").body?["title"] == "Renamed")
        try await plain.destroy(wait: true)
        #expect(try store.records(at: "/notes").count == 2)
        #expect(map.existing(Model.self, id: 1, in: "/notes") == nil)
    }

    @Test func modelsCreatedThroughACollectionAreRegisteredOnceTheyHaveAnID() async throws {
        let store = try SQLiteSync.inMemory()
        let map = IdentityMap()
        let all = notes(map, store)

        let created = try await all.create(["title": "New"])
        #expect(created.id == 1)
        #expect(map.existing(Note.self, id: 1, in: "/notes") === created)
        #expect(try await map.find(Note.self, id: 1, in: "/notes", from: store) === created)

        let other = notes(map, store)
        try await other.fetch()
        #expect(other.get(1) === created)
    }

    // MARK: - Uniqueness

    @Test func registeringASecondInstanceForARecordFails() throws {
        let map = IdentityMap()
        let original = Note(["id": 3, "title": "A"])
        try map.register(original, collection: "/notes")
        try map.register(original, collection: "/notes")  // the same instance again is fine

        let copy = Note(["id": 3, "title": "B"])
        #expect(throws: IdentityMapError.conflict(collection: "/notes", id: "3", existingType: "Note")) {
            try map.register(copy, collection: "/notes")
        }
        #expect(throws: IdentityMapError.missingID(collection: "/notes")) {
            try map.register(Note(["title": "unsaved"]), collection: "/notes")
        }
        #expect(map.existing(Note.self, id: 3, in: "/notes") === original)
        #expect(
            IdentityMapError.conflict(collection: "/notes", id: "3", existingType: "Note").description
                == "Note with id 3 already exists in /notes: another instance is loaded for that record"
        )
    }

    @Test func anIDThatClashesAfterASaveIsReportedAsAnErrorEvent() throws {
        let map = IdentityMap()
        let loaded = map.model(Note.self, collection: "/notes", attributes: ["id": 1])
        let draft = map.model(Note.self, collection: "/notes", attributes: ["title": "draft"])
        var errors: [IdentityMapError] = []
        let subscription = draft.on("error") { event in
            if let error = event.error as? IdentityMapError { errors.append(error) }
        }
        defer { subscription.cancel() }

        draft["id"] = 1

        #expect(errors == [.conflict(collection: "/notes", id: "1", existingType: "Note")])
        #expect(map.existing(Note.self, id: 1, in: "/notes") === loaded)
    }

    @Test func aModelWhoseIDChangesMoves() {
        let map = IdentityMap()
        let note = map.model(Note.self, collection: "/notes", attributes: ["id": "temp"])
        note["id"] = 5

        #expect(map.existing(Note.self, id: "temp", in: "/notes") == nil)
        #expect(map.existing(Note.self, id: 5, in: "/notes") === note)
    }

    // MARK: - Lifetime

    @Test func theMapDoesNotKeepModelsAlive() async throws {
        let store = try await seededStore()
        let map = IdentityMap()
        weak var weakNote: Note?
        do {
            let all = notes(map, store)
            try await all.fetch()
            weakNote = all.get(1)
            #expect(map.count == 3)
        }
        #expect(weakNote == nil)
        #expect(map.count == 0)
        #expect(map.existing(Note.self, id: 1, in: "/notes") == nil)

        // Loading again builds new instances.
        let reloaded = try #require(try await map.find(Note.self, id: 1, in: "/notes", from: store))
        #expect(reloaded["title"] == "Groceries")
    }

    @Test func unregisterAndRemoveAllForgetModels() {
        let map = IdentityMap()
        let first = map.model(Note.self, collection: "/notes", attributes: ["id": 1])
        let second = map.model(Note.self, collection: "/notes", attributes: ["id": 2])

        map.unregister(first)
        #expect(map.existing(Note.self, id: 1, in: "/notes") == nil)
        #expect(map.existing(Note.self, id: 2, in: "/notes") === second)
        map.removeAll()
        #expect(map.count == 0)
    }
}
