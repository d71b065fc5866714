/// How a ``Collection`` keeps its models in order: the type of its `comparator`.
///
/// Every form sorts stably: models that compare equal keep their relative order. The type
/// is not called `Comparator` because Foundation declares a `Comparator` type too, and
/// apps import both modules.
///
/// ```swift
/// let byRank = Collection<Note>(comparator: .attribute("rank"))
/// let byTitle = Collection<Note>(comparator: .key { $0["title"]?.stringValue ?? "" })
/// let newestFirst = Collection<Note>(comparator: .ordered { $0["date"]?.intValue ?? 0 > $1["date"]?.intValue ?? 0 })
/// ```
public struct ModelComparator<M: Model> {
    enum Kind {
        case attribute(String)
        case key((M) -> JSONValue?)
        case ordered((M, M) -> Bool)
    }

    let kind: Kind

    /// Sorts by one attribute's value, ascending; models without it sort last.
    ///
    /// Values order as ``JSONValue/sortsBefore(_:_:)`` describes. Backbone's string
    /// comparator (`comparator: "rank"`).
    ///
    /// ```swift
    /// notes.comparator = .attribute("rank")
    /// ```
    ///
    /// - Parameter name: The attribute's name.
    public static func attribute(_ name: String) -> ModelComparator {
        ModelComparator(kind: .attribute(name))
    }

    /// Sorts by a value computed from each model, ascending (Backbone's one-argument
    /// comparator function).
    ///
    /// ```swift
    /// notes.comparator = .key { $0["title"]?.stringValue?.lowercased() ?? "" }
    /// ```
    ///
    /// - Parameter key: The sort key of a model.
    public static func key<Key: Comparable>(_ key: @escaping (M) -> Key) -> ModelComparator {
        ModelComparator(kind: .ordered { key($0) < key($1) })
    }

    /// Sorts by a JSON value computed from each model, ascending; `nil` sorts last.
    ///
    /// ```swift
    /// notes.comparator = .value { $0["author"]?["name"] }
    /// ```
    ///
    /// - Parameter key: The sort value of a model.
    public static func value(_ key: @escaping (M) -> JSONValue?) -> ModelComparator {
        ModelComparator(kind: .key(key))
    }

    /// Sorts with a predicate that says whether the first model belongs before the second
    /// (Backbone's two-argument comparator function).
    ///
    /// ```swift
    /// notes.comparator = .ordered { $0.cid < $1.cid }
    /// ```
    ///
    /// - Parameter areInIncreasingOrder: A strict weak ordering of models.
    public static func ordered(_ areInIncreasingOrder: @escaping (M, M) -> Bool) -> ModelComparator {
        ModelComparator(kind: .ordered(areInIncreasingOrder))
    }

    /// The attribute a string comparator sorts by.
    var attributeName: String? {
        if case .attribute(let name) = kind { return name }
        return nil
    }

    /// The positions of `models` in sorted order, stably.
    ///
    /// Element `i` is the position in `models` of the model that sorts `i`th.
    /// ``Collection`` moves its models into that order in place with ``ModelPermutation``.
    func order(of models: [M]) -> ContiguousArray<Int> {
        switch kind {
        case .attribute(let name):
            if let order = Self.integerOrder(models, attribute: name) { return order }
            return Self.orderByValue(models) { $0.storage[name] }
        case .key(let key):
            return Self.orderByValue(models, key)
        case .ordered(let areInIncreasingOrder):
            var order = ContiguousArray(models.indices)
            models.withUnsafeBufferPointer { models in
                order.sort { lhs, rhs in
                    if areInIncreasingOrder(models[lhs], models[rhs]) { return true }
                    if areInIncreasingOrder(models[rhs], models[lhs]) { return false }
                    return lhs < rhs
                }
            }
            return order
        }
    }

    /// Computes each key once, then sorts positions by (key, position) so ties keep order.
    ///
    /// Here and in ``order(of:)`` the loops run over buffer pointers: `ModelComparator<M>` is
    /// generic, and called from another module its `Sequence` algorithms would run
    /// unspecialized.
    private static func orderByValue(_ models: [M], _ key: (M) -> JSONValue?) -> ContiguousArray<Int> {
        var keys = ContiguousArray<JSONValue?>()
        keys.reserveCapacity(models.count)
        models.withUnsafeBufferPointer { buffer in
            for index in buffer.indices { keys.append(key(buffer[index])) }
        }
        if let integers = integers(in: keys) {
            return integers.withUnsafeBufferPointer(IntegerRadixSort.order)
        }
        var order = ContiguousArray(keys.indices)
        order.sort { lhs, rhs in
            switch (keys[lhs], keys[rhs]) {
            case (let a?, let b?):
                if JSONValue.sortsBefore(a, b) { return true }
                if JSONValue.sortsBefore(b, a) { return false }
                return lhs < rhs
            case (.some, .none): return true
            case (.none, .some): return false
            case (.none, .none): return lhs < rhs
            }
        }
        return order
    }

    /// The keys as machine integers, when every key is an ``JSONValue/int(_:)``.
    private static func integers(in keys: ContiguousArray<JSONValue?>) -> ContiguousArray<Int>? {
        var integers = ContiguousArray<Int>()
        integers.reserveCapacity(keys.count)
        for key in keys {
            guard case .int(let integer)? = key else { return nil }
            integers.append(integer)
        }
        return integers
    }

    /// The sorted positions of `models` when each has an ``JSONValue/int(_:)`` in attribute
    /// `name`, or `nil` when one has not.
    private static func integerOrder(_ models: [M], attribute name: String) -> ContiguousArray<Int>? {
        // The models are read as the base class, in a loop that is not generic: called
        // from another module, code generic over `M` copies each model through value
        // witnesses. `M` is a class, so an element of `[M]` is a `Model` reference.
        let keys = models.withUnsafeBufferPointer { buffer in
            UnsafeRawBufferPointer(buffer).withMemoryRebound(to: Model.self) { models in
                IntegerKeys.read(attribute: name, of: models)
            }
        }
        return keys.map { $0.withUnsafeBufferPointer(IntegerRadixSort.order) }
    }
}
