/// The collections of schema 5: their numbers, and the next id and newest `seq` that a
/// create needs (see ``SQLiteCollectionState``).
extension SQLiteConnection {
    /// The collection's number, or `nil` when it has no row (it never held a record).
    ///
    /// A number read outside a transaction that created a collection (which a rollback
    /// could undo) is kept for the life of the connection, so a read by id asks SQLite only
    /// for the record.
    func collectionNumber(_ collection: String) throws(SQLiteStoreError) -> Int? {
        if let known = collectionNumbers[collection] { return known }
        var number: Int?
        try query(.collectionNumber, [.text(collection)]) { row in number = row.integer(at: 0) }
        if let number, !(createdCollectionInTransaction && isInTransaction) { collectionNumbers[collection] = number }
        return number
    }

    /// Whether the collection has its row, that is, ever held a record.
    func collectionExists(_ collection: String) throws(SQLiteStoreError) -> Bool {
        try collectionNumber(collection) != nil
    }

    /// Gives the collection its row, and so its number, inside the open transaction.
    func createCollection(_ collection: String) throws(SQLiteStoreError) -> SQLiteCollectionState {
        createdCollectionInTransaction = true
        try run(.createCollection, [.text(collection)])
        return SQLiteCollectionState(number: lastInsertedRowid())
    }

    /// The collection's next id, newest `seq` and tail, or `nil` when it has no row.
    func collectionState(_ collection: String) throws(SQLiteStoreError) -> SQLiteCollectionState? {
        guard let number = try collectionNumber(collection) else { return nil }
        return try collectionState(number: number)
    }

    /// The next id, newest `seq` and tail of the collection numbered `number`: the larger
    /// of its row's values and its tail's.
    func collectionState(number: Int) throws(SQLiteStoreError) -> SQLiteCollectionState {
        var state = SQLiteCollectionState(number: number)
        let range = SQLiteRecordKey.range(of: number)
        let bounds: [SQLiteValue] = [.integer(range?.lowerBound ?? 1), .integer(range?.upperBound ?? 0)]
        try query(.collectionState, [.integer(number)] + bounds) { row in
            state.nextID = max(state.nextID, row.optionalInteger(at: 0) ?? 1)
            state.seq = max(state.seq, row.integer(at: 1))
            if let key = row.optionalInteger(at: 2) { state.tailKey = key }
        }
        return state
    }

    /// Keeps a next id and `seq` in the collection's row, each when larger than the row's.
    func keepInCollection(number: Int, nextID: Int, seq: Int) throws(SQLiteStoreError) {
        try runBound(.keepInCollection, integers: number, nextID, seq)
    }
}
