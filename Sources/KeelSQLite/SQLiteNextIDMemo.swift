/// The next ids that a connection's own creates left, kept while nothing else committed to
/// the file, so that a create without an id need not ask SQLite for its collection's next
/// id (five B-tree seeks: the collection's row, the newest record through its index).
///
/// SQLite's data version (``SQLiteConnection/dataVersion()``) changes with every commit to
/// the file, the connection's own included: the memo keeps the version read right after
/// the commit that left its ids, and a transaction that begins at another version (another
/// connection committed, or this one through another path: a transaction, the offline
/// tables, maintenance) finds it empty. The connection forgets the ids itself after a
/// failed request and after every write other than a create without an id (an explicit
/// id, an update or a delete can move a next id). A reopened file starts with none.
///
/// The memo only stands in for the query's next id: a create still asks whether the record
/// under it is free, as it does after the query.
struct SQLiteNextIDMemo {
    private var nextIDs: [String: Int] = [:]
    private var version: UInt32 = 0

    /// The remembered next ids if the file is still at the version they were left at,
    /// else none (and they are forgotten).
    mutating func nextIDs(atDataVersion current: UInt32?) -> [String: Int] {
        if nextIDs.isEmpty { return [:] }
        guard current == version else {
            nextIDs = [:]
            return [:]
        }
        return nextIDs
    }

    /// Remembers the next id that a create without an id just committed, at the data
    /// version read after that commit; without a version (SQLite before 3.25) nothing is
    /// remembered.
    mutating func remember(_ nextID: Int, in collection: String, atDataVersion current: UInt32?) {
        guard let current else {
            nextIDs = [:]
            return
        }
        version = current
        nextIDs[collection] = nextID
    }

    /// Forgets every remembered next id.
    mutating func forget() {
        nextIDs = [:]
    }
}
