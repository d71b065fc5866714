import Foundation
import Keel
import Testing

@testable import KeelSQLite

/// A read is answered on the caller's thread when the connection is free, without waiting
/// for a turn on the store's queue; a read that finds the connection in use takes the queue.
struct RecordReadInPlaceTests {
    @Test func aReadOfOneRecordDoesNotWaitForTheQueue() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteSync(fileURL: directory.appending(path: "store.sqlite"))
            defer { store.close() }
            try await store.send(.create, "/notes", body: ["title": "Milk"])
            try await store.send(.patch, "/notes/1", body: ["done": true])

            // The queue is busy with other work; the connection is free.
            let busy = try BusyQueue(of: store)
            let response = try await store.send(.read, "/notes/1")
            #expect(busy.release() == false)

            #expect(response.status == 200)
            #expect(response.body?["title"] == "Milk")
            #expect(response.body?["done"] == true)
            #expect(response.headers["etag"] == "\"2\"")
        }
    }

    @Test func aReadsETagIsItsRecordsVersionWhetherOrNotItsHeadersAreShared() {
        for version in [0, 1, 2, 63, 64, 1_000] {
            #expect(SQLiteSync.etagHeaders(version: version) == ["etag": "\"\(version)\""])
        }
    }

    /// A record's id attribute is checked against its key as the segment text it has, an
    /// integer digit by digit.
    @Test func anIntegerIDMatchesTheKeyThatIsItsText() {
        let ids: [JSONValue] = [0, 7, 10, 42, -5, .int(Int.max), .int(Int.min), "7", 7.0, 7.5]
        let keys = [
            "0", "7", "10", "42", "-5", String(Int.max), String(Int.min), "07", "", "-0", "7a", " 7", "-", "7.5",
        ]
        for id in ids {
            for key in keys {
                #expect(SQLiteConnection.value(id, isKey: key) == (ResourcePath.segment(for: id) == key))
            }
        }
    }

    @Test func aReadOfAListDoesNotWaitForTheQueue() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteSync(fileURL: directory.appending(path: "store.sqlite"))
            defer { store.close() }
            try await store.send(.create, "/notes", body: ["title": "Milk"])
            try await store.send(.create, "/notes", body: ["title": "Eggs"])

            let busy = try BusyQueue(of: store)
            let list = try await store.send(.read, "/notes")
            let filtered = try await store.send(.read, "/notes?title=Eggs")
            let missing = await #expect(throws: SyncError.self) { try await store.send(.read, "/notes/9") }
            #expect(busy.release() == false)

            #expect(list.body?.arrayValue?.map { $0["title"] } == ["Milk", "Eggs"])
            #expect(filtered.body?.arrayValue?.map { $0["id"] } == [2])
            #expect(missing?.status == 404)
        }
    }

    @Test func aReadWaitsForTheOperationThatHoldsTheConnection() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteSync(fileURL: directory.appending(path: "store.sqlite"))
            defer { store.close() }
            try await store.send(.create, "/notes", body: ["title": "Milk"])

            // An operation holds the connection on the store's queue.
            let held = try HeldConnection(of: store)
            let finished = Lock(false)
            let read = Task {
                let response = try await store.send(.read, "/notes")
                finished.withLock { $0 = true }
                return response
            }
            try await Task.sleep(for: .milliseconds(100))
            #expect(finished.withLock { $0 } == false)
            held.release()

            let response = try await read.value
            #expect(response.body?.arrayValue?.map { $0["title"] } == ["Milk"])
        }
    }

    @Test func readsThatAreNotOneStoredRecordAnswerAsBefore() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteSync(fileURL: directory.appending(path: "store.sqlite"))
            defer { store.close() }
            try await store.send(.create, "/notes", body: ["title": "Milk"])
            try await store.send(.create, "/notes/1/comments", body: ["text": "2%"])

            let nested = try await store.send(.read, "/notes/1/comments")
            #expect(nested.body?.arrayValue?.map { $0["text"] } == ["2%"])
            let comment = try await store.send(.read, "/notes/1/comments/1")
            #expect(comment.body?["text"] == "2%")
            await #expect(throws: SyncError.self) { try await store.send(.read, "/notes/2") }
        }
    }
}
