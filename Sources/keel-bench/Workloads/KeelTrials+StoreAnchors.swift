import Foundation
import Keel
import KeelSQLite

// MARK: - store_fetch_all, store_read_by_id, store_create

extension KeelTrials {
    /// The state of the store anchors: a `SQLiteSync` on a new file, filled untimed with
    /// `records` notes (ids 0..<records) in one transaction; the `_inplace` writes open it
    /// with `writesOnCallingThread`.
    final class StoreAnchorState {
        let directory: ScratchDirectory
        let sync: SQLiteSync
        var check = 0
        var kept: [Model] = []

        init(records: Int, writesOnCallingThread: Bool = false) throws {
            directory = try ScratchDirectory()
            sync = try SQLiteSync(fileURL: directory.databaseFile, writesOnCallingThread: writesOnCallingThread)
            guard records > 0 else { return }
            try waitFor { [sync] in
                try await sync.transaction { transaction in
                    for i in 0..<records { _ = try transaction.create(noteAttributes(i), in: "/notes") }
                }
            }
        }

        deinit {
            sync.close()
            directory.remove()
        }
    }

    /// `store_fetch_all_10k` and `store_fetch_all_100k`: one `fetch()` of a new
    /// `Collection<Note>` from the file, from the main actor: a list read of every record
    /// and a model built for each.
    static func storeFetchAll(records: Int) -> Trial {
        Trial(
            setup: { try StoreAnchorState(records: records) },
            body: { state in
                let sync = Handoff(value: state.sync)
                let notes = try onMainActor {
                    let notes = Collection<Note>(url: "/notes", sync: sync.value)
                    try await notes.fetch()
                    return Handoff(value: notes)
                }.value
                state.check = storeFetchChecksum(
                    notes.models.map { ($0.intID, $0["title"]?.stringValue?.utf8.count ?? 0) }
                )
                return notes
            },
            verify: { state in state.check }
        )
    }

    /// `store_read_by_id`: every fifth note read on its own with `Store.find`, the call a
    /// detail screen makes, from the main actor.
    static func storeReadByID() -> Trial {
        Trial(
            setup: { try StoreAnchorState(records: storeRecords) },
            body: { state in
                let sync = Handoff(value: state.sync)
                let found = try onMainActor {
                    let store = Store(sync: sync.value)
                    var found: [Model] = []
                    found.reserveCapacity(storeSingleReads)
                    for k in 0..<storeSingleReads {
                        found.append(
                            try unwrap(try await store.find(StoredNote.self, id: .int(k * 5)), "no note \(k * 5)")
                        )
                    }
                    return Handoff(value: (store, found))
                }.value
                state.kept = found.1
                return found
            },
            verify: { state in
                singleReadsChecksum(
                    ids: state.kept.reduce(0) { $0 + $1.intID },
                    ranks: state.kept.reduce(0) { $0 + ($1["rank"]?.intValue ?? -1) }
                )
            }
        )
    }

    /// `store_create`: 10,000 notes created with `Collection.create` on the main actor, each
    /// saved durably before the next (its own transaction, `synchronous=FULL`);
    /// `store_create_inplace` the same with the store's writes on the calling thread.
    static func storeCreate(writesOnCallingThread: Bool = false) -> Trial {
        Trial(
            setup: { try StoreAnchorState(records: 0, writesOnCallingThread: writesOnCallingThread) },
            body: { state in
                let sync = Handoff(value: state.sync)
                let notes = try onMainActor {
                    let notes = Collection<Note>(url: "/notes", sync: sync.value)
                    for i in 0..<storeRecords { try await notes.create(newNoteAttributes(i)) }
                    return Handoff(value: notes)
                }.value
                state.kept = notes.models
                return notes
            },
            verify: { state in
                let stored = try state.sync.records(at: "/notes")
                try expect(stored.count == storeRecords, "\(stored.count) stored records")
                return orderChecksum(state.kept.map(\.intID))
            }
        )
    }
}
