/// Collection states by collection path, for the few collections that one connection
/// creates records in (``SQLiteNextIDMemo``): a short list searched in order, which
/// compares a path where a dictionary hashed it on every lookup and every store.
struct SQLiteCollectionStates {
    /// The most states kept: storing one more drops the oldest, whose collection's next
    /// create asks SQLite again (a remembered state only stands in for the query).
    static let capacity = 8

    private var entries: [(collection: String, state: SQLiteCollectionState)] = []

    /// Whether no state is kept.
    var isEmpty: Bool { entries.isEmpty }

    /// The state kept for `collection`; setting one replaces the collection's, or adds it.
    subscript(collection: String) -> SQLiteCollectionState? {
        get {
            for entry in entries where entry.collection == collection { return entry.state }
            return nil
        }
        set {
            let index = entries.firstIndex { $0.collection == collection }
            switch (index, newValue) {
            case (let index?, let state?): entries[index].state = state
            case (let index?, nil): entries.remove(at: index)
            case (nil, let state?):
                if entries.count == Self.capacity { entries.removeFirst() }
                entries.append((collection, state))
            case (nil, nil): break
            }
        }
    }
}
