import CKeelSQLite
import Keel

// MARK: - store_fetch_all, store_read_by_id, store_create

/// A note as a plain Swift object with typed fields: what a hand-written `fetchAll` row
/// decoder fills (the Lighter and GRDB shape).
final class PlainNote {
    let id: Int
    let title: String
    let body: String
    let done: Bool
    let rank: Int
    let tags: [String]
    let authorName: String
    let authorID: Int

    /// Fills the fields from a record's attributes.
    init(_ record: JSONObject) {
        id = record["id"]?.intValue ?? -1
        title = record["title"]?.stringValue ?? ""
        body = record["body"]?.stringValue ?? ""
        done = record["done"]?.boolValue ?? false
        rank = record["rank"]?.intValue ?? -1
        tags = record["tags"]?.arrayValue?.compactMap(\.stringValue) ?? []
        authorName = record["author"]?["name"]?.stringValue ?? ""
        authorID = record["author"]?["id"]?.intValue ?? -1
    }
}

extension FloorTrials {
    /// The floor of the store anchors' state: `store_write_read`'s raw sqlite3 file and
    /// statements, filled untimed with `records` notes in one transaction.
    final class StoreAnchorState {
        let raw: StoreState
        var check = 0
        var kept: [PlainNote] = []

        var database: RawSQLiteDatabase { raw.database }
        var list: OpaquePointer { raw.list }
        var single: OpaquePointer { raw.single }

        init(records: Int) throws {
            raw = try StoreState(inMemory: false)
            guard records > 0 else { return }
            try database.run(raw.begin)
            for i in 0..<records { try insertRow(id: Int64(i), JSONValue.object(noteAttributes(i)).description) }
            try database.run(raw.commit)
        }

        /// Inserts one row; a `nil` id lets SQLite assign the next.
        func insertRow(id: Int64?, _ json: String) throws {
            if let id {
                try database.check(sqlite3_bind_int64(raw.insert, 1, id))
            } else {
                try database.check(sqlite3_bind_null(raw.insert, 1))
            }
            try json.withCString { text in
                try database.check(sqlite3_bind_text(raw.insert, 2, text, -1, rawSQLiteTransient))
            }
            try database.run(raw.insert)
        }

        /// The JSON text in column 0 of the current row, parsed by Keel's parser.
        func parsedRow(_ statement: OpaquePointer) throws -> JSONObject {
            let text = try unwrap(sqlite3_column_blob(statement, 0), "a NULL json column")
            let bytes = UnsafeRawBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, 0)))
            return try unwrap(try JSONValue.parse(bytes).objectValue, "a stored record is not an object")
        }
    }

    /// The floor of `store_fetch_all_*`: one `SELECT` of every row in order, each row's text
    /// parsed by Keel's parser and read into a ``PlainNote``.
    static func storeFetchAll(records: Int) -> Trial {
        Trial(
            setup: { try StoreAnchorState(records: records) },
            body: { state in
                var notes: [PlainNote] = []
                var code = sqlite3_step(state.list)
                while code == SQLITE_ROW {
                    notes.append(PlainNote(try state.parsedRow(state.list)))
                    code = sqlite3_step(state.list)
                }
                sqlite3_reset(state.list)
                try state.database.check(code, expected: SQLITE_DONE)
                state.check = storeFetchChecksum(notes.map { ($0.id, $0.title.utf8.count) })
                return notes
            },
            verify: { state in state.check }
        )
    }

    /// The floor of `store_read_by_id`: per note, a prepared `SELECT … WHERE id = ?`, the
    /// row's text parsed by Keel's parser into a ``PlainNote``.
    static func storeReadByID() -> Trial {
        Trial(
            setup: { try StoreAnchorState(records: storeRecords) },
            body: { state in
                var found: [PlainNote] = []
                found.reserveCapacity(storeSingleReads)
                for k in 0..<storeSingleReads {
                    try state.database.check(sqlite3_bind_int64(state.single, 1, Int64(k * 5)))
                    let step = sqlite3_step(state.single)
                    defer { sqlite3_reset(state.single) }
                    try expect(step == SQLITE_ROW, "note \(k * 5) is missing")
                    found.append(PlainNote(try state.parsedRow(state.single)))
                }
                state.kept = found
                return found
            },
            verify: { state in
                singleReadsChecksum(ids: state.kept.reduce(0) { $0 + $1.id }, ranks: state.kept.reduce(0) { $0 + $1.rank })
            }
        )
    }

    /// The floor of `store_create`: per note, its JSON text written by Keel's writer, then
    /// `BEGIN IMMEDIATE`, an `INSERT` that lets SQLite assign the id, and `COMMIT`.
    static func storeCreate() -> Trial {
        Trial(
            setup: { try StoreAnchorState(records: 0) },
            body: { state in
                var ids: [Int] = []
                ids.reserveCapacity(storeRecords)
                for i in 0..<storeRecords {
                    let json = JSONValue.object(newNoteAttributes(i)).description
                    try state.database.run(state.raw.begin)
                    try state.insertRow(id: nil, json)
                    ids.append(Int(sqlite3_last_insert_rowid(state.database.handle)))
                    try state.database.run(state.raw.commit)
                }
                state.check = orderChecksum(ids)
                return ids
            },
            verify: { state in state.check }
        )
    }
}
