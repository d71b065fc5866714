import Foundation
import Keel
import Synchronization

// MARK: - store_write_read_memory

extension SameWorkTrials {
    /// `store_write_read_memory`'s state: a store on a new in-memory database, and the check
    /// value of the last timed run.
    final class StoreState: Sendable {
        let store: PlainRecordStore
        let check = Mutex(0)

        init() throws {
            store = try PlainRecordStore()
        }
    }

    /// `store_write_read_memory` through an API of the same shape as `SQLiteSync.perform`:
    /// 10,000 creates of `/notes` with the note's attributes as the body (the same literal as
    /// Keel's, a `JSONValue`), one read of
    /// `/notes`, and a read of `/notes/<i>` for every note, each request awaited and named by
    /// URL (``PlainRecordStore``).
    static func storeWriteReadMemory() -> Trial {
        Trial(
            setup: { try StoreState() },
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
