import Foundation
import Keel
import Testing

/// Changes a push source hands over together reach the store as one batch: one hand-over
/// to the backend's local copy with the last event id as the cursor, then the live models,
/// in order, each change once, with the usual events.
@MainActor
struct PushBatchTests {
    private func listening(_ store: Store, to source: any PushSource) -> Task<Void, any Error> {
        Task { @MainActor in try await store.listen(StoreTodo.self, to: source) }
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

    private func todo(_ kind: RemoteChange.Kind, _ id: Int, _ title: String? = nil, version: Int) -> RemoteChange {
        RemoteChange(kind, id: .int(id), attributes: title.map { ["id": .int(id), "title": .string($0)] }, version: String(version))
    }

    @Test func changesSentTogetherReachTheLocalCopyAsOneBatch() async throws {
        let sync = ReceivingSync()
        let store = Store(sync: sync)
        let pushes = InMemoryPushSource()
        let task = listening(store, to: pushes)
        defer { task.cancel() }
        while !pushes.hasListeners { await Task.yield() }

        pushes.send([todo(.created, 1, "Milk", version: 1), todo(.created, 2, "Bread", version: 1), todo(.deleted, 1, version: 2)])
        pushes.send(todo(.created, 3, "Eggs", version: 1))

        #expect(await settle { sync.batches.count == 2 })
        #expect(sync.batches.map(\.changes.count) == [3, 1])
        #expect(sync.batches.map(\.cursor) == ["3", "4"])
        #expect(sync.batches.allSatisfy { $0.feed == "push:/todos" })
        #expect(store.peek(StoreTodo.self, id: 1) == nil)
        #expect(store.peek(StoreTodo.self, id: 2)?["title"] == "Bread")
    }

    @Test func aBatchReachesTheLiveModelsInOrderWithTheirEvents() async throws {
        let store = Store.inMemory()
        let pushes = InMemoryPushSource()
        let all = store.query(StoreTodo.self)
        let mirror = QueryMirror(all)
        let task = listening(store, to: pushes)
        defer { task.cancel() }
        while !pushes.hasListeners { await Task.yield() }

        pushes.send([
            todo(.created, 1, "Milk", version: 1),
            todo(.updated, 1, "Oat milk", version: 2),
            todo(.created, 2, "Bread", version: 1),
            todo(.deleted, 2, version: 2),
            todo(.updated, 1, "Milk again", version: 1),
            todo(.updated, 1, "Oat milk", version: 2),
        ])

        #expect(await settle { store.peek(StoreTodo.self, id: 1)?["title"] == "Oat milk" && mirror.names.count == 3 })
        #expect(mirror.names == ["add", "add", "remove"])
        #expect(mirror.models.map(\.id) == all.models.map(\.id))
        #expect(all.models.map(\.id) == [.int(1)])
    }

    @Test func aListenerThatStartsLateGetsTheMissedChangesAsOneBatch() async throws {
        let pushes = InMemoryPushSource()
        pushes.send(todo(.created, 1, "One", version: 1))
        pushes.send(todo(.created, 2, "Two", version: 1))
        pushes.send(todo(.created, 3, "Three", version: 1))
        var batches = pushes.batches(after: "1").makeAsyncIterator()
        let missed = try await batches.next()
        #expect(missed?.map(\.eventID) == ["2", "3"])
        #expect(missed?.map(\.change.id) == [.int(2), .int(3)])
    }

    @Test func aRecordThatCannotBeReadSkipsOnlyItsChange() async throws {
        let sync = ReceivingSync(failing: [13])
        let store = Store(sync: sync)
        let pushes = InMemoryPushSource()
        let task = listening(store, to: pushes)
        defer { task.cancel() }
        while !pushes.hasListeners { await Task.yield() }

        pushes.send([todo(.created, 1, "Milk", version: 1), RemoteChange(.updated, id: 13), todo(.created, 2, "Bread", version: 1)])

        #expect(await settle { store.peek(StoreTodo.self, id: 2) != nil })
        #expect(store.peek(StoreTodo.self, id: 1)?["title"] == "Milk")
        #expect(store.peek(StoreTodo.self, id: 13) == nil)
        #expect(sync.batches.map(\.cursor) == ["1", "3"])
    }

    @Test func aSourceOfSingleChangesMakesABatchOfEach() async throws {
        let pushes = InMemoryPushSource()
        let single = OneByOne(base: pushes)
        var batches = single.batches(after: nil).makeAsyncIterator()
        while !pushes.hasListeners { await Task.yield() }
        pushes.send([todo(.created, 1, "One", version: 1), todo(.created, 2, "Two", version: 1)])
        #expect(try await batches.next()?.map(\.eventID) == ["1"])
        #expect(try await batches.next()?.map(\.eventID) == ["2"])
    }
}

/// A push source that implements only ``PushSource/changes(after:)``, as sources written
/// before batches do.
private struct OneByOne: PushSource {
    let base: InMemoryPushSource

    func changes(after lastEventID: String?) -> AsyncThrowingStream<PushedChange, any Error> {
        base.changes(after: lastEventID)
    }
}
