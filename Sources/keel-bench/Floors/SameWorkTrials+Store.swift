import Foundation
import Keel
import Synchronization

// MARK: - store_write_read, store_write_read_memory

extension SameWorkTrials {
    /// `store_write_read`'s state: a store on a new database file in a temporary directory
    /// (or in memory), and the check value of the last timed run.
    final class StoreState: Sendable {
        let directory: ScratchDirectory?
        let store: PlainRecordStore
        let check = Mutex(0)

        init(inMemory: Bool) throws {
            directory = inMemory ? nil : try ScratchDirectory()
            store = try PlainRecordStore(path: directory?.databasePath ?? ":memory:")
        }

        deinit {
            directory?.remove()
        }
    }

    /// `store_write_read` (and `store_write_read_memory`) through an API of the same shape as
    /// `SQLiteSync.perform`: 10,000 creates of `/notes` with the note's attributes as the
    /// body (the same literal as Keel's, a `JSONValue`), each its own durable transaction in
    /// the file (write-ahead log, `synchronous=FULL`, as `SQLiteSync` opens its file), one
    /// read of `/notes`, and a read of `/notes/<i>` for every note, each request awaited and
    /// named by URL (``PlainRecordStore``).
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
                            .init(method: .create, url: notes, body: .object(noteAttributes(i)))
                        )
                    }
                    let list = try await store.perform(.init(method: .read, url: notes, body: nil))
                    let listed = try unwrap(list.body?.arrayValue, "the list is not an array")
                    var ranks = 0
                    for i in 0..<storeRecords {
                        let note = try await store.perform(
                            .init(method: .read, url: notes.appendingPathComponent(String(i)), body: nil)
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
