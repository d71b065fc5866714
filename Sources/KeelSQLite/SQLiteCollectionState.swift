/// What a write needs to know about a collection of schema 5: its number, its next id, its
/// newest place in the insertion order, and the last rowid of its integer range.
///
/// Schema 5 keeps the next id and the newest `seq` on the row at the end of the
/// collection's integer range (its *tail*), which every create without an id appends, so
/// that such a create writes no other page; a record stored anywhere else (an explicit id
/// below the tail, an id of the second range) writes them to the collection's row instead,
/// and a delete of the tail moves them there first. Both only grow, so the collection's
/// values are the larger of its row's and its tail's.
struct SQLiteCollectionState: Equatable {
    /// The collection's rowid in `collections`.
    var number: Int
    /// The id the next record created without an id may get.
    var nextID: Int
    /// The largest `seq` of the collection's records, past and present.
    var seq: Int
    /// The largest rowid of the collection's integer range, or `nil` when it has none.
    var tailKey: Int?

    /// A collection that has just got its row.
    init(number: Int) {
        self.init(number: number, nextID: 1, seq: 0, tailKey: nil)
    }

    init(number: Int, nextID: Int, seq: Int, tailKey: Int?) {
        self.number = number
        self.nextID = nextID
        self.seq = seq
        self.tailKey = tailKey
    }

    /// Whether deleting the record `id` leaves this state as it is: the record is not the
    /// tail (an id of the second range, a rowid below the tail, or one past it, which no
    /// record has), so its delete moves neither the tail nor the next id and `seq` it
    /// carries.
    func leavesState(deleting id: String) -> Bool {
        guard case .integer(let key) = SQLiteRecordKey(id, number: number) else { return true }
        return key != tailKey
    }

    /// Whether no record has the integer id `id`, known without a query: its rowid is past
    /// the tail.
    func isFree(_ id: Int) -> Bool {
        guard id >= 0, id <= 0xFFFF_FFFF, let range = SQLiteRecordKey.range(of: number) else { return false }
        return range.lowerBound + id > (tailKey ?? Int.min)
    }
}
