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

    /// Whether the comparator orders models by a value of each (`.attribute`, `.value`), which
    /// ``value(of:)`` gives, rather than by a predicate over two models.
    var comparesValues: Bool {
        if case .ordered = kind { return false }
        return true
    }

    /// The value the comparator orders `model` by; `nil` for none (it sorts last), and for
    /// a comparator that does not compare values.
    func value(of model: M) -> JSONValue? {
        switch kind {
        case .attribute(let name): model.storage[name]
        case .key(let key): key(model)
        case .ordered: nil
        }
    }

    /// Whether one sort value belongs before another: values as ``JSONValue/sortsBefore(_:_:)``
    /// orders them, and a missing value last.
    static func valueSortsBefore(_ first: JSONValue?, _ second: JSONValue?) -> Bool {
        switch (first, second) {
        case (let first?, let second?): return JSONValue.sortsBefore(first, second)
        case (.some, .none): return true
        default: return false
        }
    }
}
