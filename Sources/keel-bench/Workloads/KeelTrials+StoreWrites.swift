import Foundation
import Keel
import KeelSQLite

// MARK: - store_save, store_destroy

extension KeelTrials {
    /// The state of `store_save` and `store_destroy`: the store anchors' file of
    /// ``storeRecords`` notes, fetched untimed into a `Collection<Note>` on the main actor.
    final class StoreWriteState {
        let anchor: StoreAnchorState
        let notes: Collection<Note>

        init(writesOnCallingThread: Bool) throws {
            anchor = try StoreAnchorState(records: storeRecords, writesOnCallingThread: writesOnCallingThread)
            let sync = Handoff(value: anchor.sync)
            notes = try onMainActor {
                let notes = Collection<Note>(url: "/notes", sync: sync.value)
                try await notes.fetch()
                return Handoff(value: notes)
            }.value
            try expect(notes.length == storeRecords, "\(notes.length) notes fetched")
        }
    }

    /// `store_save`: on the main actor, each note saved with a new title
    /// (`note.save(["title": …])`, a `PUT` of the whole record), each awaited, so each is
    /// its own durable transaction (`synchronous=FULL`); `store_save_inplace` the same with
    /// the store's writes on the calling thread.
    static func storeSave(writesOnCallingThread: Bool = false) -> Trial {
        Trial(
            setup: { try StoreWriteState(writesOnCallingThread: writesOnCallingThread) },
            body: { state in
                let notes = Handoff(value: state.notes)
                try onMainActor {
                    for note in notes.value.models {
                        try await note.save(["title": .string(savedNoteTitle(note.intID))])
                    }
                }
                return state.notes
            },
            verify: { state in
                let stored = try state.anchor.sync.records(at: "/notes")
                return storeFetchChecksum(
                    stored.map { ($0["id"]?.intValue ?? -1, $0["title"]?.stringValue?.utf8.count ?? 0) }
                )
            }
        )
    }

    /// `store_destroy`: on the main actor, each note destroyed (`note.destroy()`, a
    /// `DELETE`), each awaited, so each is its own durable transaction;
    /// `store_destroy_inplace` the same with the store's writes on the calling thread.
    static func storeDestroy(writesOnCallingThread: Bool = false) -> Trial {
        Trial(
            setup: { try StoreWriteState(writesOnCallingThread: writesOnCallingThread) },
            body: { state in
                let notes = Handoff(value: state.notes)
                let destroyed = try onMainActor {
                    let models = notes.value.models
                    for note in models { try await note.destroy() }
                    return Handoff(value: models)
                }.value
                state.anchor.kept = destroyed
                return destroyed
            },
            verify: { state in
                let stored = try state.anchor.sync.records(at: "/notes")
                try expect(stored.isEmpty && state.notes.length == 0, "\(stored.count) stored notes left")
                return orderChecksum(state.anchor.kept.map(\.intID))
            }
        )
    }
}
