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

    /// Returns `models` sorted stably.
    func sorted(_ models: [M]) -> [M] {
        switch kind {
        case .attribute(let name):
            return Self.sortedByValue(models) { $0.storage[name] }
        case .key(let key):
            return Self.sortedByValue(models, key)
        case .ordered(let areInIncreasingOrder):
            var order = ContiguousArray(models.indices)
            models.withUnsafeBufferPointer { models in
                order.sort { lhs, rhs in
                    if areInIncreasingOrder(models[lhs], models[rhs]) { return true }
                    if areInIncreasingOrder(models[rhs], models[lhs]) { return false }
                    return lhs < rhs
                }
            }
            return Self.gather(models, in: order)
        }
    }

    /// Computes each key once, then sorts positions by (key, position) so ties keep order.
    ///
    /// Here and in ``sorted(_:)`` the loops run over buffer pointers: `ModelComparator<M>` is
    /// generic, and called from another module its `Sequence` algorithms would run
    /// unspecialized.
    private static func sortedByValue(_ models: [M], _ key: (M) -> JSONValue?) -> [M] {
        var keys = ContiguousArray<JSONValue?>()
        keys.reserveCapacity(models.count)
        models.withUnsafeBufferPointer { buffer in
            for index in buffer.indices { keys.append(key(buffer[index])) }
        }
        var order: ContiguousArray<Int>
        if var pairs = integerPairs(keys) {
            // Comparing (key, position) pairs is stable and compares machine integers only.
            pairs.sort { $0 < $1 }
            order = ContiguousArray(unsafeUninitializedCapacity: pairs.count) { buffer, count in
                for index in pairs.indices { buffer[index] = pairs[index].position }
                count = pairs.count
            }
        } else {
            order = ContiguousArray(keys.indices)
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
        }
        return gather(models, in: order)
    }

    /// The models at the positions in `order`, in that order.
    private static func gather(_ models: [M], in order: ContiguousArray<Int>) -> [M] {
        models.withUnsafeBufferPointer { models in
            [M](unsafeUninitializedCapacity: order.count) { buffer, count in
                for index in order.indices { (buffer.baseAddress! + index).initialize(to: models[order[index]]) }
                count = order.count
            }
        }
    }

    /// The keys paired with their positions, when every key is an ``JSONValue/int(_:)``.
    private static func integerPairs(_ keys: ContiguousArray<JSONValue?>) -> ContiguousArray<(key: Int, position: Int)>? {
        var pairs = ContiguousArray<(key: Int, position: Int)>()
        pairs.reserveCapacity(keys.count)
        for position in keys.indices {
            guard case .int(let key)? = keys[position] else { return nil }
            pairs.append((key, position))
        }
        return pairs
    }
}
