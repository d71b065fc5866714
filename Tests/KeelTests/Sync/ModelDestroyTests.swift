import Foundation
import Keel
import Testing

// MARK: - Destroy

@MainActor
struct ModelDestroyTests {
    // Backbone model.js "destroy".
    @Test func destroySendsDeleteAndANewModelSendsNothing() async throws {
        let backend = ScriptedSync(always: SyncResponse(status: 204))
        let (doc, collection) = makeTempestFixture(sync: backend)
        defer { withExtendedLifetime(collection) {} }
        let response = try await doc.destroy()
        #expect(response?.status == 204)
        #expect(backend.requests.map(\.method) == [.delete])
        #expect(backend.requests.first?.path == "/collection/1-the-tempest")
        #expect(backend.requests.first?.body == nil)

        let newModel = Model()
        newModel.sync = backend
        #expect(try await newModel.destroy() == nil)
        #expect(backend.requests.count == 1)
    }

    // Backbone model.js "non-persisted destroy" and collection.js "non-persisted model destroy
    // removes from all collections".
    @Test func nonPersistedDestroyRemovesFromAllCollectionsWithoutARequest() async throws {
        let backend = ScriptedSync()
        let model = Model(["title": "Othello"])
        model.sync = backend
        let first = Collection<Model>([model])
        let second = Collection<Model>([model])
        try await model.destroy()
        #expect(first.isEmpty)
        #expect(second.isEmpty)
        #expect(model.collection == nil)
        #expect(backend.requests.isEmpty)
    }

    // Backbone collection.js "model destroy removes from all collections".
    @Test func destroyRemovesFromAllCollections() async throws {
        let model = Model(["id": 5, "title": "Othello"])
        model.urlRoot = "/plays"
        model.sync = ScriptedSync(always: SyncResponse(status: 204))
        let first = Collection<Model>([model])
        let second = Collection<Model>([model])
        try await model.destroy()
        #expect(first.isEmpty)
        #expect(second.isEmpty)
        #expect(model.collection == nil)
    }

    // Backbone model.js #1365 "Destroy: New models execute success callback".
    @Test func destroyingANewModelFiresDestroyAndRunsTheSuccessHandler() async throws {
        let model = Model()
        model.sync = ScriptedSync()
        let log = SyncEventLog()
        log.watch(model)
        var succeeded = false
        try await model.destroy(options: SyncOptions(onSuccess: { _ in succeeded = true }))
        #expect(log.entries == ["destroy"])
        #expect(succeeded)
    }

    // Keel: `destroy` fires right after `request`, before the server answers (Backbone: after
    // sync() returns); the collection removes the model then.
    // Backbone §2.12: the model's own `destroy` listeners run while it is still in the collection.
    @Test func ownDestroyHandlersRunBeforeTheCollectionRemovesTheModel() async throws {
        let backend = ScriptedSync(always: SyncResponse(status: 204))
        let (doc, collection) = makeTempestFixture(sync: backend)
        var seenInCollection: [Bool] = []
        doc.on("destroy") { _ in seenInCollection.append(collection.contains { $0 === doc }) }
        collection.on("destroy") { _ in seenInCollection.append(collection.contains { $0 === doc }) }
        try await doc.destroy()
        #expect(seenInCollection == [true, false])
    }

    @Test func destroyWithoutWaitEventOrder() async throws {
        let backend = ScriptedSync(always: SyncResponse(status: 204))
        let (doc, collection) = makeTempestFixture(sync: backend)
        let log = SyncEventLog()
        // The model's own handlers run before the collection's forwarding (an `all` handler).
        log.watch(doc, label: "model", events: "request destroy remove sync error")
        log.watch(collection, label: "collection")
        try await doc.destroy(options: SyncOptions(onSuccess: { _ in log.note("onSuccess") }))
        #expect(
            log.entries == [
                "model:request", "collection:request",
                "model:destroy", "model:remove", "collection:remove", "collection:update", "collection:destroy",
                "onSuccess", "model:sync",
            ]
        )
        #expect(collection.isEmpty)
    }

    @Test func destroyWithWaitEventOrder() async throws {
        let backend = ScriptedSync(always: SyncResponse(status: 204))
        let (doc, collection) = makeTempestFixture(sync: backend)
        let log = SyncEventLog()
        // The model's own handlers run before the collection's forwarding (an `all` handler).
        log.watch(doc, label: "model", events: "request destroy remove sync error")
        log.watch(collection, label: "collection")
        doc.on("request") { _ in #expect(collection.count == 1) }
        try await doc.destroy(wait: true, options: SyncOptions(onSuccess: { _ in log.note("onSuccess") }))
        #expect(
            log.entries == [
                "model:request", "collection:request",
                "model:destroy", "model:remove", "collection:remove", "collection:update", "collection:destroy",
                "onSuccess", "model:sync",
            ]
        )
        #expect(collection.isEmpty)
    }

    @Test func failedDestroyWithWaitKeepsTheModel() async throws {
        let backend = ScriptedSync(failing: .httpStatus(409, body: ["error": "locked"]))
        let (doc, collection) = makeTempestFixture(sync: backend)
        let log = SyncEventLog()
        log.watch(doc)
        await #expect(throws: SyncError.httpStatus(409, body: ["error": "locked"])) {
            try await doc.destroy(wait: true)
        }
        #expect(collection.count == 1)
        #expect(doc.collection === collection)
        #expect(log.entries == ["request", "error"])
    }

    @Test func failedDestroyWithoutWaitStaysDestroyedLocally() async throws {
        let backend = ScriptedSync(failing: .httpStatus(500, body: nil))
        let (doc, collection) = makeTempestFixture(sync: backend)
        let log = SyncEventLog()
        log.watch(doc, events: "request destroy remove error")
        await #expect(throws: SyncError.httpStatus(500, body: nil)) { try await doc.destroy() }
        #expect(collection.isEmpty)
        #expect(log.entries == ["request", "destroy", "remove", "error"])
    }

    @Test func destroyDeletesTheRecordFromInMemorySync() async throws {
        let backend = InMemorySync(records: ["/notes": [["id": 1, "title": "a"], ["id": 2, "title": "b"]]])
        let notes = Collection<Model>(url: "/notes", sync: backend)
        try await notes.fetch()
        try await #require(notes.get(1)).destroy(wait: true)
        #expect(backend.records(at: "/notes") == [["id": 2, "title": "b"]])
        #expect(notes.map(\.id) == [2])
        await #expect(throws: SyncError.storeRefused(StoreRefusal(.notFound, path: "notes/1"))) {
            try await Model(["id": 1], options: ChangeOptions()).withBackend(backend, urlRoot: "/notes").destroy()
        }
    }
}

extension Model {
    /// Sets the backend and urlRoot, and returns the model (for one-line set-ups).
    fileprivate func withBackend(_ backend: any Sync, urlRoot: String) -> Self {
        self.sync = backend
        self.urlRoot = urlRoot
        return self
    }
}
