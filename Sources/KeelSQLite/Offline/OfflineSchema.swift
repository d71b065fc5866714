/// The tables of ``SQLiteOfflineStore``, next to `SQLiteSync`'s in a Keel store file.
///
/// They are created on open when missing (`IF NOT EXISTS`), so an existing store file
/// gains them without a schema version change.
enum OfflineSchema {
    static let sql = """
        CREATE TABLE IF NOT EXISTS offline_collections(
            path TEXT PRIMARY KEY NOT NULL,
            next_id INTEGER NOT NULL DEFAULT 1
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS offline_records(
            collection TEXT NOT NULL,
            id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            json TEXT NOT NULL,
            version TEXT,
            removed INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (collection, id)
        );
        CREATE INDEX IF NOT EXISTS offline_records_order ON offline_records(collection, seq);
        CREATE TABLE IF NOT EXISTS offline_queue(
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            method TEXT NOT NULL,
            url TEXT NOT NULL,
            collection TEXT NOT NULL,
            record_id TEXT NOT NULL,
            body TEXT,
            headers TEXT NOT NULL,
            idempotency_key TEXT NOT NULL UNIQUE,
            base_version TEXT,
            state TEXT NOT NULL DEFAULT 'pending',
            detail TEXT,
            root_key TEXT
        );
        CREATE INDEX IF NOT EXISTS offline_queue_record ON offline_queue(collection, record_id);
        CREATE TABLE IF NOT EXISTS offline_ids(
            collection TEXT NOT NULL,
            temporary_id TEXT NOT NULL,
            server_id TEXT NOT NULL,
            PRIMARY KEY (collection, temporary_id)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS offline_mentions(
            temporary_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            PRIMARY KEY (temporary_id, seq)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS offline_counters(
            name TEXT PRIMARY KEY NOT NULL,
            value INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS offline_cursors(
            feed TEXT PRIMARY KEY NOT NULL,
            cursor TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS offline_change_versions(
            collection TEXT NOT NULL,
            id TEXT NOT NULL,
            version TEXT NOT NULL,
            PRIMARY KEY (collection, id)
        ) WITHOUT ROWID;
        """

    /// Creates the missing tables in one transaction; a read-only file must have them all.
    static func create(in connection: SQLiteConnection) throws(SQLiteStoreError) {
        if connection.isReadOnly {
            guard try hasRootKeyColumn(in: connection) else { throw .readOnly(path: connection.path) }
            return
        }
        try connection.execute("BEGIN IMMEDIATE")
        do throws(SQLiteStoreError) {
            let indexesMentions = try !hasTable("offline_mentions", in: connection)
            try connection.execute(sql)
            try addRootKeyColumn(in: connection)
            if indexesMentions { try indexMentions(in: connection) }
            try connection.execute("COMMIT")
        } catch {
            if connection.isInTransaction { try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    private static func hasTable(_ name: String, in connection: SQLiteConnection) throws(SQLiteStoreError) -> Bool {
        try !connection.rows("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1", [.text(name)]).isEmpty
    }

    /// Fills `offline_mentions` for the changes a file made before it existed has queued.
    private static func indexMentions(in connection: SQLiteConnection) throws(SQLiteStoreError) {
        let tables = OfflineTables(connection: connection, idAttribute: "id")
        for change in try tables.queue() { try tables.indexMentions(of: change) }
    }

    /// Adds the queue's `root_key` column to a file made before it existed; its changes keep
    /// `NULL`, since they were queued with their bodies as sent.
    private static func addRootKeyColumn(in connection: SQLiteConnection) throws(SQLiteStoreError) {
        guard try !hasRootKeyColumn(in: connection) else { return }
        try connection.execute("ALTER TABLE offline_queue ADD COLUMN root_key TEXT")
    }

    /// Whether the queue has its `root_key` column (so, also, whether the tables exist).
    private static func hasRootKeyColumn(in connection: SQLiteConnection) throws(SQLiteStoreError) -> Bool {
        let columns = try connection.rows("PRAGMA table_info(offline_queue)").compactMap { $0.count > 1 ? $0[1] : nil }
        return columns.contains("root_key")
    }
}
