import Dispatch
import Foundation
import Keel
@testable import KeelSQLite
import Testing

/// A read of one record is answered on the caller's thread when the connection is free,
/// without waiting for a turn on the store's queue; every other read still takes the queue.
struct RecordReadInPlaceTests {
    @Test func aReadOfOneRecordDoesNotWaitForTheQueue() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteSync(fileURL: directory.appending(path: "store.sqlite"))
            defer { store.close() }
            try await store.send(.create, "/notes", body: ["title": "Milk"])
            try await store.send(.patch, "/notes/1", body: ["done": true])

            // The queue is busy with other work; the connection is free.
            let queue = try #require(store.queue)
            let release = DispatchSemaphore(value: 0)
            let releasedByGuard = Lock(false)
            queue.async { release.wait() }
            // Only so that a read that waits for the queue fails instead of hanging.
            DispatchQueue.global().asyncAfter(deadline: .now() + 30) {
                releasedByGuard.withLock { $0 = true }
                release.signal()
            }

            let response = try await store.send(.read, "/notes/1")
            #expect(releasedByGuard.withLock { $0 } == false)
            release.signal()

            #expect(response.status == 200)
            #expect(response.body?["title"] == "Milk")
            #expect(response.body?["done"] == true)
            #expect(response.headers["etag"] == "\"2\"")
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
