/// The collection states (next id, newest `seq`, tail) that a connection's own creates
/// left, kept while nothing else committed to the file, so that the next create need not
/// ask SQLite for them (the collection's row and its tail), nor whether the record under
/// its next id is free: past the tail it is (``SQLiteCollectionState/isFree(_:)``).
///
/// SQLite's data version (``SQLiteConnection/dataVersion()``) changes with every commit to
/// the file, the connection's own included: the memo keeps the version read right after
/// the commit that left its ids, and a transaction that begins at another version (another
/// connection committed, or this one through another path: a transaction, the offline
/// tables, maintenance) finds it empty. The connection forgets the ids itself after a
/// failed request and after every write other than a create or a delete that left the
/// state as it was (an update can store a record without moving the next id past it, a
/// delete of the tail changes the tail). A create, with or without an id, knows the state
/// it leaves exactly: the state it read, its record's id and `seq`, and the tail when its
/// rowid is past the old one; a delete of any record but the tail leaves the state it read.
/// A reopened file starts with none.
///
/// The memo only stands in for the query: a next id at or below the tail is still asked
/// for, as it is after the query.
struct SQLiteNextIDMemo {
    private var states = SQLiteCollectionStates()
    private var version: UInt32 = 0

    /// The remembered states if the file is still at the version they were left at, else
    /// none (and they are forgotten).
    mutating func states(atDataVersion current: UInt32?) -> SQLiteCollectionStates {
        if states.isEmpty { return SQLiteCollectionStates() }
        guard current == version else {
            states = SQLiteCollectionStates()
            return SQLiteCollectionStates()
        }
        return states
    }

    /// Remembers the state that a create or a delete just committed, at the data version
    /// read after that commit; without a version (SQLite before 3.25) nothing is
    /// remembered.
    mutating func remember(_ state: SQLiteCollectionState, in collection: String, atDataVersion current: UInt32?) {
        guard let current else {
            states = SQLiteCollectionStates()
            return
        }
        version = current
        states[collection] = state
    }

    /// Forgets every remembered next id.
    mutating func forget() {
        states = SQLiteCollectionStates()
    }
}
