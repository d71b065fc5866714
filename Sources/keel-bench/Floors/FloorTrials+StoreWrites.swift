import CKeelSQLite
import Keel

// MARK: - store_save, store_destroy

extension FloorTrials {
    /// The floor of `store_save` and `store_destroy`: the store anchors' raw file of
    /// ``storeRecords`` notes, with an `UPDATE` and a `DELETE` by id prepared once.
    final class StoreWriteState {
        let anchor: StoreAnchorState
        let update: OpaquePointer
        let delete: OpaquePointer
        var destroyed: [Int] = []

        var database: RawSQLiteDatabase { anchor.database }

        init() throws {
            anchor = try StoreAnchorState(records: storeRecords)
            update = try anchor.database.prepare("UPDATE notes SET json = ?2 WHERE id = ?1")
            delete = try anchor.database.prepare("DELETE FROM notes WHERE id = ?1")
        }

        deinit {
            sqlite3_finalize(update)
            sqlite3_finalize(delete)
        }

        /// Runs `statement` with `id` bound to its first parameter in a transaction of its own.
        func runDurably(_ statement: OpaquePointer, id: Int) throws {
            try database.run(anchor.raw.begin)
            try database.check(sqlite3_bind_int64(statement, 1, Int64(id)))
            try database.run(statement)
            try expect(sqlite3_changes(database.handle) == 1, "note \(id) is missing")
            try database.run(anchor.raw.commit)
        }

        /// The stored notes' ids and title lengths, in id order.
        func storedTitles() throws -> [(id: Int, titleLength: Int)] {
            var titles: [(id: Int, titleLength: Int)] = []
            var code = sqlite3_step(anchor.list)
            while code == SQLITE_ROW {
                let note = PlainNote(try anchor.parsedRow(anchor.list))
                titles.append((note.id, note.title.utf8.count))
                code = sqlite3_step(anchor.list)
            }
            sqlite3_reset(anchor.list)
            try database.check(code, expected: SQLITE_DONE)
            return titles
        }
    }

    /// The floor of `store_save`: per note, the record's JSON text with its new title written
    /// by Keel's writer, then `BEGIN IMMEDIATE`, an `UPDATE` by id and `COMMIT`.
    static func storeSave() -> Trial {
        Trial(
            setup: { try StoreWriteState() },
            body: { state in
                for i in 0..<storeRecords {
                    var attributes = noteAttributes(i)
                    attributes["title"] = .string(savedNoteTitle(i))
                    let json = JSONValue.object(attributes).description
                    try json.withCString { text in
                        try state.database.check(sqlite3_bind_text(state.update, 2, text, -1, rawSQLiteTransient))
                    }
                    try state.runDurably(state.update, id: i)
                }
                return state
            },
            verify: { state in storeFetchChecksum(try state.storedTitles()) }
        )
    }

    /// The floor of `store_destroy`: per note, `BEGIN IMMEDIATE`, a `DELETE` by id and
    /// `COMMIT`.
    static func storeDestroy() -> Trial {
        Trial(
            setup: { try StoreWriteState() },
            body: { state in
                for i in 0..<storeRecords {
                    try state.runDurably(state.delete, id: i)
                    state.destroyed.append(i)
                }
                return state
            },
            verify: { state in
                try expect(try state.storedTitles().isEmpty, "stored notes left")
                return orderChecksum(state.destroyed)
            }
        )
    }
}
