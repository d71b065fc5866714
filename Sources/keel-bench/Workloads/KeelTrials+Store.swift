import Foundation
import Keel
import KeelSQLite

// MARK: - store_write_read

extension KeelTrials {
    /// `store_write_read`'s state: a new `SQLiteSync` on a file in a temporary directory
    /// (or in memory), and the check value of the last timed run.
    final class StoreState: Sendable {
        let directory: ScratchDirectory?
        let store: SQLiteSync
        let check = Lock(0)

        init(inMemory: Bool) throws {
            directory = inMemory ? nil : try ScratchDirectory()
            store = try directory.map { try SQLiteSync(fileURL: $0.databaseFile) } ?? SQLiteSync.inMemory()
        }

        deinit {
            store.close()
            directory?.remove()
        }
    }

    /// `store_write_read`: 10,000 notes created one `create` at a time, as an app saving
    /// models one by one does (each its own durable transaction); then one list read of
    /// `/notes` and a read of every note by its id.
    ///
    /// - Parameter inMemory: Whether the store lives in memory (`store_write_read_memory`)
    ///   instead of a file in a temporary directory.
    static func storeWriteRead(inMemory: Bool) -> Trial {
        Trial(
            setup: { try StoreState(inMemory: inMemory) },
            body: { state in
                try waitFor {
                    let store = state.store
                    let notes = URL(string: "/notes")!
                    for i in 0..<storeRecords {
                        _ = try await store.perform(
                            SyncRequest(method: .create, url: notes, body: .object(noteAttributes(i)))
                        )
                    }
                    let list = try await store.perform(SyncRequest(method: .read, url: notes))
                    let listed = try unwrap(list.body?.arrayValue, "the list is not an array")
                    var ranks = 0
                    for i in 0..<storeRecords {
                        let note = try await store.perform(
                            SyncRequest(method: .read, url: notes.appendingPathComponent(String(i)))
                        )
                        ranks += note.body?["rank"]?.intValue ?? -1
                    }
                    let check = storeChecksum(
                        listed: listed.map { ($0["id"]?.intValue ?? -1, $0["title"]?.stringValue?.utf8.count ?? 0) },
                        ranks: ranks
                    )
                    state.check.withLock { $0 = check }
                    return listed
                }
            },
            verify: { state in state.check.withLock { $0 } }
        )
    }
}
