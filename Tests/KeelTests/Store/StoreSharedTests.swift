import Keel
import Testing

/// A store serves models and collections that name no backend (RestKit's shared object
/// manager, DrupalEntity's shared session), scoped to a task.
struct StoreSharedTests {
    @Test func aModelWithoutABackendSavesThroughTheScopedStore() async throws {
        let server = InMemorySync()
        let store = Store(sync: server)
        let note = Model(["title": "Milk"])
        note.urlRoot = "/notes"
        try await store.asShared { try await note.save() }
        #expect(note.id != nil)
        #expect(server.records(at: "/notes").count == 1)
    }

    @Test func aCollectionWithoutABackendFetchesThroughTheScopedStore() async throws {
        let store = Store(sync: InMemorySync(records: ["/notes": [["id": 1, "title": "Milk"]]]))
        let notes = Collection<Model>(url: "/notes")
        try await store.asShared { try await notes.fetch() }
        #expect(notes.count == 1)
    }

    @Test func outsideTheScopeThereIsNoBackend() async throws {
        let store = Store.inMemory()
        let note = Model(["title": "Milk"])
        note.urlRoot = "/notes"
        await store.asShared {}
        await #expect(throws: SyncError.missingBackend) { try await note.save() }
    }

    @Test func anInnerScopeWinsAndTasksCreatedInsideInheritIt() async throws {
        let outer = InMemorySync()
        let inner = InMemorySync()
        let note = Model(["title": "Milk"])
        note.urlRoot = "/notes"
        try await Store(sync: outer).asShared {
            try await Store(sync: inner).asShared {
                let child = Task { @MainActor in try await Collection<Model>(url: "/notes").fetch().count }
                _ = try await child.value
                try await note.save()
            }
        }
        #expect(outer.requests.isEmpty)
        #expect(inner.requests.map(\.method) == [.read, .create])
    }

    @Test func aModelsOwnBackendStillWins() async throws {
        let own = InMemorySync()
        let scoped = InMemorySync()
        let note = Model(["title": "Milk"])
        note.urlRoot = "/notes"
        note.sync = own
        try await Store(sync: scoped).asShared { try await note.save() }
        #expect(own.requests.count == 1 && scoped.requests.isEmpty)
    }
}
