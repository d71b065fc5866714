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
    /// `?1` collection number, `?2`…`?3` its integer range: `key, json, seq, id` of each
    /// record, those of the integer range in key order (`id` NULL), then those of the second
    /// range in id order.
    case recordsInCollection
    /// `?1` rowid: `json, version` of one record of the integer range.
    case recordByKey
    /// `?1` collection number, `?2` id: `json, version` of one record of the second range.
    case recordByText
    /// `?1` rowid: `version` of one record of the integer range.
    case versionByKey
    /// `?1` collection number, `?2` id: `version` of one record of the second range.
    case versionByText
    /// Every record as `collection path, id, json`, collection by collection in insertion
    /// order.
    case allRecords
    /// `?1` rowid, `?2` collection number, `?3` id, `?4` seq, `?5` JSON text, `?6` the
    /// collection's next id.
    case insertByKey
    /// As ``insertByKey`` without `?1`: the record takes the rowid below every other.
    case insertByText
    /// `?1` JSON text, `?2` rowid: new attributes, the version one more.
    case replaceByKey
    /// `?1` JSON text, `?2` collection number, `?3` id: new attributes, the version one more.
    case replaceByText
    /// `?1` rowid.
    case deleteByKey
    /// `?1` collection number, `?2` id.
    case deleteByText
    /// `?1` path: the collection's number.
    case collectionNumber
    /// `?1` path: a new collection's row; its number is the inserted rowid.
    case createCollection
    /// `?1` collection number, `?2`…`?3` its integer range: `next_id, seq, NULL` of the
    /// collection's row, then `next_id, seq, key` of its tail, if it has one.
    case collectionState
    /// `?1` collection number, `?2` next id, `?3` seq: each kept in the collection's row when
    /// larger.
    case keepInCollection
    /// `?1` collection number, `?2`…`?3` its integer range, `?4` a rowid: when that rowid is
    /// the tail, its next id and seq move to the collection's row (before it is deleted).
    case keepTail

    /// The statement's SQL.
    var sql: String {
        switch self {
        case .beginImmediate: "BEGIN IMMEDIATE"
        case .begin: "BEGIN"
        case .commit: "COMMIT"
        case .rollback: "ROLLBACK"
        case .recordsInCollection:
            """
            SELECT key, json, seq, NULL FROM records WHERE key BETWEEN ?2 AND ?3
            UNION ALL SELECT key, json, seq, id FROM records WHERE collection = ?1 AND key < 0
            """
        case .recordByKey: "SELECT json, version FROM records WHERE key = ?1"
        case .recordByText: "SELECT json, version FROM records WHERE collection = ?1 AND id = ?2 AND key < 0"
        case .versionByKey: "SELECT version FROM records WHERE key = ?1"
        case .versionByText: "SELECT version FROM records WHERE collection = ?1 AND id = ?2 AND key < 0"
        case .allRecords:
            """
            SELECT c.path, r.id, r.json FROM records r JOIN collections c ON c.number = r.collection
            ORDER BY c.path, r.seq
            """
        case .insertByKey:
            "INSERT INTO records(key, collection, id, seq, json, next_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
        case .insertByText:
            """
            INSERT INTO records(key, collection, id, seq, json, next_id)
            VALUES ((SELECT min(coalesce(min(key), 0), 0) - 1 FROM records), ?1, ?2, ?3, ?4, ?5)
            """
        case .replaceByKey: "UPDATE records SET json = ?1, version = version + 1 WHERE key = ?2"
        case .replaceByText:
            "UPDATE records SET json = ?1, version = version + 1 WHERE collection = ?2 AND id = ?3 AND key < 0"
        case .deleteByKey: "DELETE FROM records WHERE key = ?1"
        case .deleteByText: "DELETE FROM records WHERE collection = ?1 AND id = ?2 AND key < 0"
        case .collectionNumber: "SELECT number FROM collections WHERE path = ?1"
        case .createCollection: "INSERT INTO collections(path) VALUES (?1)"
        case .collectionState:
            """
            SELECT next_id, seq, NULL FROM collections WHERE number = ?1
            UNION ALL SELECT * FROM (
                SELECT next_id, seq, key FROM records WHERE key BETWEEN ?2 AND ?3 ORDER BY key DESC LIMIT 1
            )
            """
        case .keepInCollection:
            """
            UPDATE collections SET next_id = max(next_id, ?2), seq = max(seq, ?3)
            WHERE number = ?1 AND (next_id < ?2 OR seq < ?3)
            """
        case .keepTail:
            """
            UPDATE collections SET
                next_id = max(next_id, coalesce((SELECT next_id FROM records WHERE key = ?4), 1)),
                seq = max(seq, (SELECT seq FROM records WHERE key = ?4))
            WHERE number = ?1
                AND ?4 = (SELECT key FROM records WHERE key BETWEEN ?2 AND ?3 ORDER BY key DESC LIMIT 1)
            """
        }
    }
}
