import Foundation
import Keel
import KeelSQLite
import Testing

/// `SQLiteOfflineStore` stores the server's changes with their cursor: after the file is
/// opened again, the cursor is there and a change already stored, or older, is not
/// applied again, a deleted record included.
struct ServerChangeStoreTests {
    private func batch(_ changes: [RemoteChange], cursor: String?, isComplete: Bool = false) -> ChangeBatch {
        ChangeBatch(collection: "/tasks", changes: changes, cursor: cursor, feed: "pull:/tasks", isComplete: isComplete)
    }

    @Test func aReopenedStoreKeepsTheCursorAndAppliesNothingTwice() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "cache.sqlite")
            let updated = RemoteChange(.updated, id: 1, attributes: ["id": 1, "title": "B"], version: "2")
            let deleted = RemoteChange(.deleted, id: 2, version: "5")
            do {
                let local = try SQLiteOfflineStore(fileURL: file)
                _ = try await local.store(
                    batch([RemoteChange(.created, id: 2, attributes: ["id": 2, "title": "X"], version: "4")], cursor: "4"),
                    versionCheck: .none
                )
                let stored = try await local.store(batch([updated, deleted], cursor: "5"), versionCheck: .none)
                #expect(stored.applied == [updated, deleted])
            }
            let reopened = try SQLiteOfflineStore(fileURL: file)
            #expect(try await reopened.cursor(for: "pull:/tasks") == "5")
            let again = try await reopened.store(
                batch(
                    [
                        updated,
                        RemoteChange(.updated, id: 1, attributes: ["id": 1, "title": "A"], version: "1"),
                        RemoteChange(.updated, id: 2, attributes: ["id": 2, "title": "X"], version: "4"),
                    ],
                    cursor: nil
                ),
                versionCheck: .none
            )
            #expect(again.applied.isEmpty)
            #expect(try await reopened.record("1", in: "/tasks")?["title"] == "B")
            #expect(try await reopened.record("2", in: "/tasks") == nil)
            #expect(try await reopened.cursor(for: "pull:/tasks") == "5")
        }
    }

    @Test func aCompleteBatchRemovesWhatItDoesNotNameButKeepsQueuedRecords() async throws {
        let local = try SQLiteOfflineStore.inMemory()
        _ = try await local.store(
            batch(
                [
                    RemoteChange(.created, id: 1, attributes: ["id": 1, "title": "Kept"]),
                    RemoteChange(.created, id: 2, attributes: ["id": 2, "title": "Gone"]),
                    RemoteChange(.created, id: 3, attributes: ["id": 3, "title": "Queued"]),
                ],
                cursor: "1"
            ),
            versionCheck: .none
        )
        _ = try await local.write(
            SyncRequest(method: .patch, url: URL(string: "/tasks/3")!, body: ["title": "Mine"]),
            idempotencyKey: "k",
            versionCheck: .none
        )
        let stored = try await local.store(
            batch([RemoteChange(.updated, id: 1, attributes: ["id": 1, "title": "Kept"])], cursor: "2", isComplete: true),
            versionCheck: .none
        )
        #expect(stored.applied.map(\.kind) == [.updated, .deleted])
        #expect(try await local.record("2", in: "/tasks") == nil)
        #expect(try await local.record("3", in: "/tasks")?["title"] == "Mine")
    }
}
