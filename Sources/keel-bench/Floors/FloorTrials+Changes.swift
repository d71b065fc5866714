import CKeelSQLite
import Foundation
import Keel

// MARK: - change_pull

extension FloorTrials {
    /// The floor of `change_pull`'s state: the same in-process server, and a raw sqlite3 file
    /// (WAL, `synchronous=NORMAL`, as `SQLiteOfflineStore` stores the server's changes) with
    /// its 100,000 notes as JSON text with their versions and the cursor after them, filled
    /// untimed in one transaction; the changes then published.
    final class ChangePullState {
        let directory: ScratchDirectory
        let database: RawSQLiteDatabase
        let server = ChangeFeedServer()
        let begin: OpaquePointer
        let upsert: OpaquePointer
        let setCursor: OpaquePointer
        let commit: OpaquePointer

        init() throws {
            directory = try ScratchDirectory()
            database = try RawSQLiteDatabase(path: directory.databaseFile.path)
            try database.execute(
                """
                PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;
                CREATE TABLE notes(id INTEGER PRIMARY KEY, json TEXT NOT NULL, version INTEGER NOT NULL);
                CREATE TABLE cursors(feed TEXT PRIMARY KEY, cursor TEXT NOT NULL);
                """
            )
            begin = try database.prepare("BEGIN IMMEDIATE")
            upsert = try database.prepare(
                """
                INSERT INTO notes(id, json, version) VALUES (?1, ?2, ?3)
                ON CONFLICT(id) DO UPDATE SET json = excluded.json, version = excluded.version
                WHERE excluded.version > notes.version
                """
            )
            setCursor = try database.prepare(
                "INSERT INTO cursors(feed, cursor) VALUES ('notes', ?1) ON CONFLICT(feed) DO UPDATE SET cursor = excluded.cursor"
            )
            commit = try database.prepare("COMMIT")
            try store(server.records(after: nil))
            server.publishChanges(expiringCursors: false)
        }

        deinit {
            for statement in [begin, upsert, setCursor, commit] { sqlite3_finalize(statement) }
            directory.remove()
        }

        /// Stores the records newer than the stored ones, and the newest version as the
        /// cursor, in one transaction.
        func store(_ records: ArraySlice<JSONValue>) throws {
            try database.run(begin)
            var newest = 0
            for record in records {
                let version = record["version"]?.intValue ?? 0
                newest = max(newest, version)
                try database.check(sqlite3_bind_int64(upsert, 1, Int64(record["id"]?.intValue ?? -1)))
                try record.description.withCString { text in
                    try database.check(sqlite3_bind_text(upsert, 2, text, -1, rawSQLiteTransient))
                }
                try database.check(sqlite3_bind_int64(upsert, 3, Int64(version)))
                try database.run(upsert)
            }
            try String(newest).withCString { text in
                try database.check(sqlite3_bind_text(setCursor, 1, text, -1, rawSQLiteTransient))
            }
            try database.run(setCursor)
            try database.run(commit)
        }
    }

    /// The floor of `change_pull`: the changes after the stored cursor from the server, then
    /// each stored over its note when newer, and the cursor, in one raw sqlite3 transaction.
    static func changePull() -> Trial {
        Trial(
            setup: { try ChangePullState() },
            body: { state in try state.store(state.server.records(after: 1)) },
            verify: { state in
                let title = try state.database.prepare("SELECT json FROM notes WHERE id = ?1")
                let cursor = try state.database.prepare("SELECT cursor FROM cursors WHERE feed = 'notes'")
                defer {
                    sqlite3_finalize(title)
                    sqlite3_finalize(cursor)
                }
                var lengths: [Int] = []
                for k in 0..<changePullChanges {
                    try state.database.check(sqlite3_bind_int64(title, 1, Int64(changedNoteID(k))))
                    try state.database.check(sqlite3_step(title), expected: SQLITE_ROW)
                    let record = try JSONValue(parsing: Data(String(cString: sqlite3_column_text(title, 0)).utf8))
                    lengths.append(record["title"]?.stringValue?.utf8.count ?? 0)
                    sqlite3_reset(title)
                }
                try state.database.check(sqlite3_step(cursor), expected: SQLITE_ROW)
                let stored = Int(String(cString: sqlite3_column_text(cursor, 0))) ?? -1
                return changePullChecksum(cursor: stored, titleLengths: lengths)
            }
        )
    }
}

// MARK: - change_push_apply

/// A note of the push floor: a plain object with the fields a pushed change updates.
final class PlainPushedNote {
    var title: String
    var version: Int
    var attributes: PlainAttributes

    init(title: String, version: Int, attributes: PlainAttributes) {
        self.title = title
        self.version = version
        self.attributes = attributes
    }
}

extension FloorTrials {
    /// The floor of `change_push_apply`'s state: 10,000 plain notes at version 1 by id, and
    /// the same 10,000 events.
    final class PushApplyState {
        var notes: [Int: PlainPushedNote] = [:]
        let events = pushedEvents()

        init() {
            for i in 0..<pushedChanges {
                notes[i] = PlainPushedNote(title: "note \(i)", version: 1, attributes: [:])
            }
        }
    }

    /// The floor of `change_push_apply`: per event its JSON parsed (``PlainJSONParser``),
    /// the note found by id, and its fields replaced when the version is newer.
    static func pushApply() -> Trial {
        Trial(
            setup: { PushApplyState() },
            body: { state in
                for event in state.events {
                    let record = try unwrap(try PlainJSONParser.parse(event.data).objectValue, "not an object")
                    let note = try unwrap(state.notes[record["id"]?.intValue ?? -1], "no note")
                    let version = record["version"]?.intValue ?? 0
                    guard version > note.version else { continue }
                    if case .string(let title) = record["title"] { note.title = title }
                    note.version = version
                    note.attributes = record
                }
            },
            verify: { state in pushApplyChecksum(titleLengths: state.notes.values.map(\.title.utf8.count)) }
        )
    }
}
