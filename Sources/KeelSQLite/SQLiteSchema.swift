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
    /// 5. `records` is keyed by rowid *collection number* × 2³² + *id* for integer ids
    ///    (``SQLiteRecordKey``), with no index to update, so a create without an id appends
    ///    one row at the end of its collection's range and its commit writes one page
    ///    (schema 4 wrote three: the row and two index entries); other ids take negative
    ///    rowids, found through the partial unique index `records_key` on
    ///    `(collection, id) WHERE key < 0`. `collections` numbers the collections (its
    ///    rowid) and keeps a next id and newest `seq` for writes that are not at the end
    ///    of their range (``SQLiteCollectionState``); `records.seq` keeps the insertion order,
    ///    which a list sorts by only when its key order differs. `records.id` has no type,
    ///    so that an id's text is stored as it is (`007` stays text). Records keep their id,
    ///    version, next id and order.
    static let version = 5

    /// The tables of schema 5, created as `collections_v5` and `records_v5` and renamed
    /// once filled, then their indexes.
    private static let tables = """
        CREATE TABLE collections_v5(
            number INTEGER PRIMARY KEY,
            path TEXT NOT NULL,
            next_id INTEGER NOT NULL DEFAULT 1,
            seq INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE records_v5(
            key INTEGER PRIMARY KEY,
            json TEXT NOT NULL,
            version INTEGER NOT NULL DEFAULT 1,
            seq INTEGER NOT NULL,
            next_id INTEGER,
            collection INTEGER NOT NULL,
            id NOT NULL
        );
        """
    private static let renamedTablesAndIndexes = """
        ALTER TABLE collections_v5 RENAME TO collections;
        ALTER TABLE records_v5 RENAME TO records;
        CREATE UNIQUE INDEX collections_path ON collections(path);
        CREATE UNIQUE INDEX records_key ON records(collection, id) WHERE key < 0;
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
                    \(tables)
                    \(renamedTablesAndIndexes)
                    PRAGMA application_id = \(applicationID);
                    """
                )
            }
            if current == 1 {
                try connection.execute("ALTER TABLE records ADD COLUMN version INTEGER NOT NULL DEFAULT 1")
            }
            if (1...4).contains(current) { try moveRecords(connection, from: current) }
            if current < version { try connection.execute("PRAGMA user_version = \(version)") }
            try connection.execute("COMMIT")
        } catch {
            if connection.isInTransaction { try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    /// Moves the records of schemas 1 to 4 to the tables of schema 5, each collection
    /// numbered (in path order) with its next id, each record with its id, version and
    /// place in its collection's order.
    ///
    /// Schemas 3 and 4 keep the newest next id on a collection's newest record, schemas 1
    /// and 2 in `collections`; schema 5 starts with it in `collections`. Each record's key
    /// is computed here by ``SQLiteRecordKey``, the same rule the store reads by; records
    /// of the second range take rowids −1, −2, … in order.
    private static func moveRecords(_ connection: SQLiteConnection, from current: Int) throws(SQLiteStoreError) {
        let newestNextID =
            current >= 3
            ? "coalesce((SELECT r.next_id FROM records r WHERE r.collection = path ORDER BY r.seq DESC LIMIT 1), 1)"
            : "1"
        try connection.execute(
            """
            INSERT OR IGNORE INTO collections(path) SELECT DISTINCT collection FROM records;
            \(tables)
            INSERT INTO collections_v5(path, next_id)
                SELECT path, max(next_id, \(newestNextID)) FROM collections ORDER BY path;
            """
        )
        var seqs: [Int: Int] = [:]
        var textKey = 0
        let rows = """
            SELECT c.number, r.id, r.json, r.version FROM records r JOIN collections_v5 c ON c.path = r.collection
            ORDER BY c.number, r.seq
            """
        try connection.query(rows) { (row: SQLiteRow) throws(SQLiteStoreError) in
            let number = row.integer(at: 0)
            let id = row.text(at: 1) ?? ""
            let seq = seqs[number, default: 0] + 1
            seqs[number] = seq
            let key: Int
            switch SQLiteRecordKey(id, number: number) {
            case .integer(let integerKey): key = integerKey
            case .text:
                textKey -= 1
                key = textKey
            }
            try connection.run(
                "INSERT INTO records_v5(key, json, version, seq, collection, id) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                [
                    .integer(key), .text(row.text(at: 2) ?? ""), .integer(row.integer(at: 3)), .integer(seq),
                    .integer(number), .text(id),
                ]
            )
        }
        for (number, seq) in seqs {
            try connection.run(
                "UPDATE collections_v5 SET seq = ?2 WHERE number = ?1",
                [.integer(number), .integer(seq)]
            )
        }
        try connection.execute(
            """
            DROP TABLE records;
            DROP TABLE collections;
            \(renamedTablesAndIndexes)
            """
        )
    }

    private static func verifyTables(_ connection: SQLiteConnection) throws(SQLiteStoreError) {
        let tables = try connection.rows(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('collections', 'records') ORDER BY name"
        )
        let columns = try connection.rows(
            """
            SELECT name FROM pragma_table_info('records') WHERE name IN ('key', 'next_id', 'seq', 'version')
            UNION ALL SELECT name FROM pragma_table_info('collections') WHERE name = 'number'
            """
        )
        guard tables == [["collections"], ["records"]],
            columns == [["key"], ["version"], ["seq"], ["next_id"], ["number"]]
        else {
            throw .corrupt(path: connection.path, message: "the tables of schema \(version) are missing")
        }
    }

    private static func integer(_ connection: SQLiteConnection, _ sql: String) throws(SQLiteStoreError) -> Int {
        let value = try connection.rows(sql).first?.first.flatMap { $0 }
        return value.flatMap { Int($0) } ?? 0
    }
}
