import CKeelSQLite

// MARK: - store_write_read

extension FloorTrials {
    /// The floor of `store_write_read`'s state: a raw sqlite3 database with one table of JSON
    /// text per record, configured as `SQLiteSync` configures its file (write-ahead log,
    /// `synchronous=FULL`), and its statements, prepared once and reused.
    final class StoreState {
        let directory: ScratchDirectory?
        let database: RawSQLiteDatabase
        let begin: OpaquePointer
        let insert: OpaquePointer
        let commit: OpaquePointer
        let list: OpaquePointer
        let single: OpaquePointer
        var check = 0

        init(inMemory: Bool) throws {
            directory = inMemory ? nil : try ScratchDirectory()
            database = try RawSQLiteDatabase(path: directory?.databasePath ?? ":memory:")
            try database.execute(
                """
                PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;
                CREATE TABLE notes(id INTEGER PRIMARY KEY, json TEXT NOT NULL);
                """
            )
            begin = try database.prepare("BEGIN IMMEDIATE")
            insert = try database.prepare("INSERT INTO notes(id, json) VALUES (?1, ?2)")
            commit = try database.prepare("COMMIT")
            list = try database.prepare("SELECT json FROM notes ORDER BY id")
            single = try database.prepare("SELECT json FROM notes WHERE id = ?1")
        }

        deinit {
            for statement in [begin, insert, commit, list, single] { sqlite3_finalize(statement) }
            directory?.remove()
        }

        /// The JSON text in column 0 of the current row, parsed.
        func parsedRow(_ statement: OpaquePointer) throws -> PlainAttributes {
            let text = try unwrap(sqlite3_column_text(statement, 0), "a NULL json column")
            return try unwrap(
                try PlainJSONParser.parse(String(cString: text)).objectValue,
                "a stored record is not an object"
            )
        }
    }

    /// The floor of `store_write_read`: each note's JSON text, written by the floor's own
    /// writer, inserted in a transaction of its own (`BEGIN IMMEDIATE`, `INSERT`, `COMMIT`);
    /// then one `SELECT` of every record in order and one per record, each row's text parsed
    /// by the floor's own parser.
    ///
    /// - Parameter inMemory: Whether the database lives in memory (`store_write_read_memory`)
    ///   instead of a file in a temporary directory.
    static func storeWriteRead(inMemory: Bool) -> Trial {
        Trial(
            setup: { try StoreState(inMemory: inMemory) },
            body: { state in
                let database = state.database
                for i in 0..<storeRecords {
                    let json = PlainJSONWriter.text(of: .object(plainNote(i)))
                    try database.run(state.begin)
                    try database.check(sqlite3_bind_int64(state.insert, 1, Int64(i)))
                    try json.withCString { text in
                        try database.check(sqlite3_bind_text(state.insert, 2, text, -1, rawSQLiteTransient))
                    }
                    try database.run(state.insert)
                    try database.run(state.commit)
                }
                var listed: [PlainAttributes] = []
                listed.reserveCapacity(storeRecords)
                var code = sqlite3_step(state.list)
                while code == SQLITE_ROW {
                    listed.append(try state.parsedRow(state.list))
                    code = sqlite3_step(state.list)
                }
                sqlite3_reset(state.list)
                try database.check(code, expected: SQLITE_DONE)
                var ranks = 0
                for i in 0..<storeRecords {
                    try database.check(sqlite3_bind_int64(state.single, 1, Int64(i)))
                    let step = sqlite3_step(state.single)
                    defer { sqlite3_reset(state.single) }
                    try expect(step == SQLITE_ROW, "note \(i) is missing")
                    ranks += try state.parsedRow(state.single)["rank"]?.intValue ?? -1
                }
                state.check = storeChecksum(
                    listed: listed.map { record in
                        guard case .string(let title) = record["title"] else { return (-1, 0) }
                        return (record["id"]?.intValue ?? -1, title.utf8.count)
                    },
                    ranks: ranks
                )
                return listed
            },
            verify: { state in state.check }
        )
    }
}
