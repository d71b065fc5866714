extension ModelComparator {
    /// Whether `first` sorts strictly before `second`: the comparison the sort of a whole
    /// collection makes, for one pair (values order as ``JSONValue/sortsBefore(_:_:)``, with
    /// missing values last).
    func sortsBefore(_ first: M, _ second: M) -> Bool {
        switch kind {
        case .attribute(let name):
            return Self.valueSortsBefore(first.storage[name], second.storage[name])
        case .key(let key):
            return Self.valueSortsBefore(key(first), key(second))
        case .ordered(let areInIncreasingOrder):
            return areInIncreasingOrder(first, second)
        }
    }

    private static func valueSortsBefore(_ first: JSONValue?, _ second: JSONValue?) -> Bool {
        switch (first, second) {
        case (let first?, let second?): return JSONValue.sortsBefore(first, second)
        case (.some, .none): return true
        default: return false
        }
    }
}
