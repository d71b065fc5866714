/// The statements every operation on the records runs, each prepared once per connection
/// and found by its index rather than by its SQL text.
///
/// Finding a cached statement by its SQL hashed and compared the whole text on every call
/// (about a thousand instructions for a read by id); an enum case is an array index.
/// Statements run rarely (schema, maintenance, the offline tables) stay in the connection's
/// cache by their text.
enum SQLiteStatement: Int, CaseIterable {
    case beginImmediate
    case begin
    case commit
    case rollback
    /// `?1` collection: `id, json` of each record in insertion order.
    case recordsInCollection
    /// `?1` collection, `?2` id: `json, version` of one record.
    case versionedRecord
    /// `?1` collection, `?2` id: `version` of one record.
    case version
    /// Every record as `collection, id, json`, collection by collection in insertion order.
    case allRecords
    /// `?1` collection, `?2` id, `?3` JSON text, `?4` the collection's next id; the record
    /// takes the next rowid, which puts it last.
    case insert
    /// `?1` JSON text, `?2` collection, `?3` id: new attributes, the version one more.
    case replace
    /// `?1` collection: moves the next id that the newest record carries to the
    /// collection's row, before a delete.
    case keepNextID
    /// `?1` collection, `?2` id.
    case delete
    /// `?1` collection: the next id, whether the collection has its row, and the version of
    /// the record under the next id (see ``SQLiteConnection/nextID(in:)``).
    case nextID
    /// `?1` collection, `?2` next id: stored in the collection's row.
    case setNextID
    /// `?1` collection: its row, when it has none.
    case ensureCollection

    /// The statement's SQL.
    var sql: String {
        switch self {
        case .beginImmediate: "BEGIN IMMEDIATE"
        case .begin: "BEGIN"
        case .commit: "COMMIT"
        case .rollback: "ROLLBACK"
        case .recordsInCollection: "SELECT id, json FROM records WHERE collection = ?1 ORDER BY seq"
        case .versionedRecord: "SELECT json, version FROM records WHERE collection = ?1 AND id = ?2"
        case .version: "SELECT version FROM records WHERE collection = ?1 AND id = ?2"
        case .allRecords: "SELECT collection, id, json FROM records ORDER BY collection, seq"
        case .insert: "INSERT INTO records(collection, id, json, next_id) VALUES (?1, ?2, ?3, ?4)"
        case .replace: "UPDATE records SET json = ?1, version = version + 1 WHERE collection = ?2 AND id = ?3"
        case .keepNextID:
            """
            UPDATE collections SET next_id = (SELECT next_id FROM records WHERE collection = ?1 ORDER BY seq DESC LIMIT 1)
            WHERE path = ?1 AND next_id < (SELECT next_id FROM records WHERE collection = ?1 ORDER BY seq DESC LIMIT 1)
            """
        case .delete: "DELETE FROM records WHERE collection = ?1 AND id = ?2"
        case .nextID:
            """
            SELECT next, stored IS NOT NULL,
                (SELECT version FROM records WHERE collection = ?1 AND id = CAST(next AS TEXT))
            FROM (
                SELECT MAX(COALESCE(stored, 1), COALESCE(latest, 1)) AS next, stored
                FROM (
                    SELECT (SELECT next_id FROM collections WHERE path = ?1) AS stored,
                        (SELECT next_id FROM records WHERE collection = ?1 ORDER BY seq DESC LIMIT 1) AS latest
                )
            )
            """
        case .setNextID:
            """
            INSERT INTO collections(path, next_id) VALUES (?1, ?2)
            ON CONFLICT(path) DO UPDATE SET next_id = excluded.next_id
            """
        case .ensureCollection: "INSERT OR IGNORE INTO collections(path) VALUES (?1)"
        }
    }
}
