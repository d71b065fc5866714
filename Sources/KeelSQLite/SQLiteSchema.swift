/// Opening a store file safely: validate first (reads only), then configure and migrate.
///
/// Nothing is written to a file until it has passed every check, so a file that is not a
/// database, is damaged, belongs to another application or was written by a newer schema
/// is left byte for byte as it was.
enum SQLiteSchema {
    /// The schema version this build writes and reads (`PRAGMA user_version`).
    ///
    /// 1. `collections(path, next_id)` and `records(collection, id, seq, json)`.
    /// 2. `records.version`: the record's version, 1 on insert and one more per update
    ///    (records of a schema 1 file start at 1).
    /// 3. `records` is kept in insertion order, `(collection, seq)` (a `WITHOUT ROWID`
    ///    table), with a unique index `records_key` on `(collection, id)`, and
    ///    `records.next_id` holds the collection's next id as it stood after the record was
    ///    stored: a create writes two pages instead of four (the record and its key, no
    ///    separate order index, no update of `collections`). Records keep their id,
    ///    version and order.
    /// 4. `records` is a rowid table again, its rowid `seq` (the insertion order across
    ///    the file), with a unique index `records_key` on `(id, collection)` and
    ///    `records_order` on `(collection, seq)`: a read by id seeks the key index and then
    ///    one rowid, where schema 3 sought the key index and then the table by its text and
    ///    integer pair; a create takes the next rowid instead of asking for its
    ///    collection's largest `seq`. The key starts with the id, which differs between
    ///    neighbouring entries where the collection mostly does not, so SQLite compares
    ///    most entries by their first column alone. Records keep their id, version, next
    ///    id and order.
    static let version = 4

    /// The `records` table of schema 4 and its indexes; `CREATE TABLE records_v4`, renamed
    /// once filled, then its indexes.
    private static let recordsTable = """
        CREATE TABLE records_v4(
            seq INTEGER PRIMARY KEY,
            collection TEXT NOT NULL,
            id TEXT NOT NULL,
            json TEXT NOT NULL,
            version INTEGER NOT NULL DEFAULT 1,
            next_id INTEGER
        );
        """
    private static let recordsIndexes = """
        CREATE UNIQUE INDEX records_key ON records(id, collection);
        CREATE INDEX records_order ON records(collection, seq);
        """

    /// Marks the file as a Keel store (`PRAGMA application_id`), the bytes of "Keel".
    static let applicationID = 0x4B65_656C

    /// How long a write waits for another connection's lock before failing with `.busy`.
    static let busyTimeoutMilliseconds: Int32 = 5_000

    /// Opens, validates, configures and (for a new file) creates the schema; a read-only
    /// file is only validated, and must have the current schema.
    static func open(path: String, mode: SQLiteOpenMode) throws(SQLiteStoreError) -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path, mode: mode)
        do {
            try prepare(connection, inMemory: path == ":memory:")
        } catch {
            connection.close()
            throw error
        }
        return connection
    }

    private static func prepare(_ connection: SQLiteConnection, inMemory: Bool) throws(SQLiteStoreError) {
        let path = connection.path
        connection.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)

        // Validation: reads only. The first read parses the file header, which is where a
        // file that is not a database fails.
        let found = try integer(connection, "PRAGMA user_version")
        let application = try integer(connection, "PRAGMA application_id")
        let objects = try connection.rows("SELECT name FROM sqlite_master")
        if application != applicationID && (application != 0 || !objects.isEmpty) {
            throw .foreignDatabase(path: path)
        }
        if found > version { throw .newerSchema(found: found, supported: version) }
        if !objects.isEmpty {
            let report = try connection.rows("PRAGMA quick_check").map { $0.first.flatMap { $0 } ?? "" }
            if report != ["ok"] {
                throw .corrupt(path: path, message: report.prefix(5).joined(separator: "; "))
            }
        }

        if connection.isReadOnly {
            // Read as it is: a file that needs its schema created or migrated cannot be read.
            guard found == version else { throw .readOnly(path: path) }
            try verifyTables(connection)
            return
        }

        // Configuration: from here on the file may be written.
        let mode = try connection.rows("PRAGMA journal_mode=WAL").first?.first.flatMap { $0 } ?? ""
        if !inMemory && mode.lowercased() != "wal" {
            throw .cannotOpen(path: path, message: "write-ahead logging is not available (journal mode \(mode))")
        }
        // FULL makes every acknowledged commit durable: the WAL is synced before COMMIT returns.
        try connection.execute("PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON")
        try migrate(connection, from: found)
        try verifyTables(connection)
    }

    /// Brings the schema to ``version``; another process may be doing the same, so the
    /// version is read again inside the write transaction.
    private static func migrate(_ connection: SQLiteConnection, from found: Int) throws(SQLiteStoreError) {
        guard found < version else { return }
        try connection.execute("BEGIN IMMEDIATE")
        do throws(SQLiteStoreError) {
            let current = try integer(connection, "PRAGMA user_version")
            if current > version {
                throw .newerSchema(found: current, supported: version)
            }
            if current == 0 {
                try connection.execute(
                    """
                    CREATE TABLE collections(
                        path TEXT PRIMARY KEY NOT NULL,
                        next_id INTEGER NOT NULL DEFAULT 1
                    ) WITHOUT ROWID;
                    \(recordsTable)
                    ALTER TABLE records_v4 RENAME TO records;
                    \(recordsIndexes)
                    PRAGMA application_id = \(applicationID);
                    """
                )
            }
            if current == 1 {
                try connection.execute("ALTER TABLE records ADD COLUMN version INTEGER NOT NULL DEFAULT 1")
            }
            if (1...3).contains(current) {
                // The records move to the rowid table in their order, each with its id,
                // version and (from schema 3) next id; inserted in that order, they take
                // rowids (their new seq) in the same order per collection. Schemas 1 and 2
                // keep their next ids in `collections`.
                try connection.execute(
                    """
                    \(recordsTable)
                    INSERT INTO records_v4(collection, id, json, version, next_id)
                        SELECT collection, id, json, version, \(current == 3 ? "next_id" : "NULL")
                        FROM records ORDER BY collection, seq;
                    DROP TABLE records;
                    ALTER TABLE records_v4 RENAME TO records;
                    \(recordsIndexes)
                    """
                )
            }
            if current < version { try connection.execute("PRAGMA user_version = \(version)") }
            try connection.execute("COMMIT")
        } catch {
            if connection.isInTransaction { try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    private static func verifyTables(_ connection: SQLiteConnection) throws(SQLiteStoreError) {
        let tables = try connection.rows(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('collections', 'records') ORDER BY name"
        )
        let columns = try connection.rows(
            "SELECT name FROM pragma_table_info('records') WHERE name IN ('version', 'next_id') ORDER BY name"
        )
        guard tables == [["collections"], ["records"]], columns == [["next_id"], ["version"]] else {
            throw .corrupt(path: connection.path, message: "the tables of schema \(version) are missing")
        }
    }

    private static func integer(_ connection: SQLiteConnection, _ sql: String) throws(SQLiteStoreError) -> Int {
        let value = try connection.rows(sql).first?.first.flatMap { $0 }
        return value.flatMap { Int($0) } ?? 0
    }
}
