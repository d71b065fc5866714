import Foundation
import Keel
import Testing

@testable import KeelSQLite

/// A store opened with `writesOnCallingThread` answers a write on the caller's thread when
/// the connection is free, without waiting for a turn on the store's queue; a write that
/// finds the connection in use, a cancelled task or a closed store takes the queue, and a
/// store opened without it writes on the queue as before.
struct RecordWriteInPlaceTests {
    @Test func everyWriteDoesNotWaitForTheQueue() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "store.sqlite")
            let store = try SQLiteSync(fileURL: file, writesOnCallingThread: true)
            defer { store.close() }

            // The queue is busy with other work; the connection is free.
            let busy = try BusyQueue(of: store)
            let created = try await store.send(.create, "/notes", body: ["title": "Milk"])
            let replaced = try await store.send(.update, "/notes/1", body: ["title": "Oat milk"])
            let patched = try await store.send(.patch, "/notes/1", body: ["done": true])
            try await store.send(.create, "/notes", body: ["title": "Eggs"])
            try await store.send(.delete, "/notes/2")
            let together = try await store.performInTransaction(
                [
                    SyncRequest(method: .create, url: url("/lists"), body: ["name": "Groceries"]),
                    SyncRequest(method: .create, url: url("/items"), body: ["title": "Bread"]),
                ],
                links: [RequestLink(request: 1, keyPath: ["list_id"], source: 0)]
            )
            #expect(busy.release() == false)

            #expect(created.status == 201)
            #expect(created.body?["id"] == 1)
            #expect(created.headers["etag"] == "\"1\"")
            #expect(replaced.headers["etag"] == "\"2\"")
            #expect(patched.body == .object(["id": 1, "title": "Oat milk", "done": true]))
            #expect(patched.headers["etag"] == "\"3\"")
            #expect(together[1].body?["list_id"] == 1)

            // Committed: another store on the file reads every write.
            let reader = try SQLiteSync(fileURL: file)
            defer { reader.close() }
            #expect(try reader.records(at: "/notes") == [["id": 1, "title": "Oat milk", "done": true]])
            #expect(try reader.records(at: "/items") == [["id": 1, "title": "Bread", "list_id": 1]])
            let next = try await reader.send(.create, "/notes", body: ["title": "Tea"])
            #expect(next.body?["id"] == 3)
        }
    }

    @Test func aCollectionCreatesItsModelsOnTheCallingThread() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteSync(fileURL: directory.appending(path: "store.sqlite"), writesOnCallingThread: true)
            defer { store.close() }
            let notes = Collection<Model>(url: "/notes", sync: store)

            let busy = try BusyQueue(of: store)
            let first = try await notes.create(["title": "Milk"])
            let second = try await notes.create(["title": "Eggs"])
            try await first.save(["done": true])
            try await second.destroy()
            #expect(busy.release() == false)

            #expect(notes.models.map { $0["id"] } == [1])
            #expect(try store.records(at: "/notes") == [["id": 1, "title": "Milk", "done": true]])
        }
    }

    @Test func aStoreOpenedWithoutTheOptionWritesOnTheQueue() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteSync(fileURL: directory.appending(path: "store.sqlite"))
            defer { store.close() }
            #expect(store.writesOnCallingThread == false)

            let busy = try BusyQueue(of: store)
            let finished = Lock(false)
            let write = Task {
                let response = try await store.send(.create, "/notes", body: ["title": "Milk"])
                finished.withLock { $0 = true }
                return response
            }
            try await Task.sleep(for: .milliseconds(100))
            #expect(finished.withLock { $0 } == false)
            #expect(busy.release() == false)

            #expect(try await write.value.body?["id"] == 1)
        }
    }

    @Test func aWriteWaitsForTheOperationThatHoldsTheConnection() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteSync(fileURL: directory.appending(path: "store.sqlite"), writesOnCallingThread: true)
            defer { store.close() }
            try await store.send(.create, "/notes", body: ["title": "Milk"])

            // An operation holds the connection on the store's queue.
            let held = try HeldConnection(of: store)
            let finished = Lock(false)
            let write = Task {
                let response = try await store.send(.create, "/notes", body: ["title": "Eggs"])
                finished.withLock { $0 = true }
                return response
            }
            try await Task.sleep(for: .milliseconds(100))
            #expect(finished.withLock { $0 } == false)
            held.release()

            #expect(try await write.value.body?["id"] == 2)
            #expect(try store.records(at: "/notes").map { $0["title"] } == ["Milk", "Eggs"])
        }
    }

    @Test func aCancelledTaskWritesNothing() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteSync(fileURL: directory.appending(path: "store.sqlite"), writesOnCallingThread: true)
            defer { store.close() }

            let write = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await store.send(.create, "/notes", body: ["title": "Milk"])
            }
            let error = await #expect(throws: SyncError.self) { try await write.value }
            #expect(error == .cancelled)
            #expect(try store.records(at: "/notes").isEmpty)
        }
    }

    @Test func aClosedStoreFailsClearly() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "store.sqlite")
            let store = try SQLiteSync(fileURL: file, writesOnCallingThread: true)
            store.close()

            let error = await #expect(throws: SyncError.self) {
                try await store.send(.create, "/notes", body: ["title": "Milk"])
            }
            let closed = SQLiteStoreError.closed(path: file.path(percentEncoded: false))
            #expect(error == .storage(closed.description))
        }
    }
}
