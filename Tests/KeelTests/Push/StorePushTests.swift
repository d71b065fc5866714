import Foundation
import Keel
import Testing

/// A store listening to an in-process push source applies created, updated and deleted
/// changes to its live models and queries, each once and in version order.
@MainActor
struct StorePushTests {
    private func listening(_ store: Store, to pushes: InMemoryPushSource) -> Task<Void, any Error> {
        Task { @MainActor in try await store.listen(StoreTodo.self, to: pushes) }
    }

    private func settle(_ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition() {
            if ContinuousClock.now >= deadline { return false }
            await Task.yield()
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    @Test func pushedChangesReachLiveQueriesWithTheirEvents() async throws {
        let store = Store.inMemory()
        let pushes = InMemoryPushSource()
        let all = store.query(StoreTodo.self)
        let mirror = QueryMirror(all)
        let task = listening(store, to: pushes)
        defer { task.cancel() }
        while !pushes.hasListeners { await Task.yield() }

        pushes.send(RemoteChange(.created, id: 1, attributes: ["id": 1, "title": "Milk"], version: "1"))
        pushes.send(RemoteChange(.updated, id: 1, attributes: ["id": 1, "title": "Oat milk"], version: "2"))
        pushes.send(RemoteChange(.created, id: 2, attributes: ["id": 2, "title": "Bread"], version: "1"))
        pushes.send(RemoteChange(.deleted, id: 2, version: "2"))

        // Also wait for the three events: id 1 alone already makes one result.
        #expect(await settle { store.peek(StoreTodo.self, id: 1)?["title"] == "Oat milk" && mirror.names.count == 3 && all.count == 1 })
        #expect(mirror.names == ["add", "add", "remove"])
        #expect(mirror.models.map(\.id) == all.models.map(\.id))
    }

    @Test func aRepeatedOrOlderChangeIsNotApplied() async throws {
        let store = Store.inMemory()
        let applied = try await store.apply(
            [
                RemoteChange(.updated, id: 1, attributes: ["id": 1, "title": "v2"], version: "2026-05-01T12:00:00.5Z"),
                RemoteChange(.updated, id: 1, attributes: ["id": 1, "title": "v1"], version: "2026-05-01T12:00:00.25Z"),
                RemoteChange(.updated, id: 1, attributes: ["id": 1, "title": "v2"], version: "2026-05-01T12:00:00.500Z"),
            ],
            to: StoreTodo.self
        )
        #expect(applied.count == 1)
        #expect(store.peek(StoreTodo.self, id: 1)?["title"] == "v2")
    }

    @Test func aPushedChangeKeepsTheModelsUnsavedChanges() async throws {
        let store = Store.inMemory()
        try await store.apply([RemoteChange(.created, id: 1, attributes: ["id": 1, "title": "A", "done": false])], to: StoreTodo.self)
        let todo = try #require(store.peek(StoreTodo.self, id: 1))
        todo["title"] = "Mine"
        try await store.apply([RemoteChange(.updated, id: 1, attributes: ["id": 1, "title": "Theirs", "done": true])], to: StoreTodo.self)
        #expect(todo["title"] == "Mine")
        #expect(todo["done"] == true)
        try await store.apply([RemoteChange(.deleted, id: 1)], to: StoreTodo.self)
        #expect(store.peek(StoreTodo.self, id: 1) === todo)
    }

    @Test func aListenerResumesAfterTheLastEventItApplied() async throws {
        let store = Store.inMemory()
        let pushes = InMemoryPushSource()
        pushes.send(RemoteChange(.created, id: 1, attributes: ["id": 1, "title": "Before"]))
        let first = listening(store, to: pushes)
        while !pushes.hasListeners { await Task.yield() }
        pushes.send(RemoteChange(.created, id: 2, attributes: ["id": 2, "title": "Heard"]))
        #expect(await settle { store.peek(StoreTodo.self, id: 2) != nil })
        first.cancel()
        _ = await first.result
        pushes.send(RemoteChange(.created, id: 3, attributes: ["id": 3, "title": "While away"]))

        let second = listening(store, to: pushes)
        defer { second.cancel() }
        #expect(await settle { store.peek(StoreTodo.self, id: 3) != nil })
        #expect(store.peek(StoreTodo.self, id: 1) == nil)
    }

    @Test func anIDOnlyChangeIsReadFromTheBackend() async throws {
        let sync = InMemorySync()
        _ = try await sync.perform(SyncRequest(method: .create, url: URL(string: "/todos")!, body: ["title": "Stored"]))
        let store = Store(sync: sync)
        let id = try #require(try await sync.perform(SyncRequest(method: .read, url: URL(string: "/todos")!)).body?[0]?["id"])
        try await store.apply([RemoteChange(.updated, id: id), RemoteChange(.updated, id: 999)], to: StoreTodo.self)
        #expect(store.peek(StoreTodo.self, id: id)?["title"] == "Stored")
        #expect(store.peek(StoreTodo.self, id: 999) == nil)
    }
}
