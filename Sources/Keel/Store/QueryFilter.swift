/// Which models a ``LiveQuery`` holds: a test of a model's attributes.
///
/// Build one from attribute values, typed ``AttributeKey``s or a closure, and combine them
/// with `&&`, `||` and `!`. The test runs on the query's isolation whenever a model of the
/// class changes, so keep it cheap and free of side effects.
///
/// ```swift
/// let open: QueryFilter<Todo> = .equals(Todo.done, false)
/// let urgent: QueryFilter<Todo> = open && .key(Todo.priority) { ($0 ?? 0) >= 3 }
/// let mine = QueryFilter<Todo> { $0["owner"] == "ann" }
/// ```
public struct QueryFilter<M: Model> {
    private let test: (M) -> Bool

    /// A filter that runs a closure.
    ///
    /// ```swift
    /// let long = QueryFilter<Todo> { ($0[Todo.title] ?? "").count > 20 }
    /// ```
    ///
    /// - Parameter isIncluded: Whether a model belongs in the query.
    public init(_ isIncluded: @escaping (M) -> Bool) {
        test = isIncluded
    }

    /// Whether `model` belongs in the query.
    ///
    /// ```swift
    /// QueryFilter<Todo>.equals(Todo.done, false).matches(todo)
    /// ```
    ///
    /// - Parameter model: A model.
    /// - Returns: `true` when the filter accepts it.
    public func matches(_ model: M) -> Bool { test(model) }

    /// Models whose attribute `name` equals `value` (compared as JSON values).
    ///
    /// ```swift
    /// let open: QueryFilter<Todo> = .attribute("done", equals: false)
    /// ```
    ///
    /// - Parameters:
    ///   - name: The attribute's name.
    ///   - value: The value it must have.
    /// - Returns: The filter.
    public static func attribute(_ name: String, equals value: JSONValue) -> QueryFilter {
        QueryFilter { $0.get(name) == value }
    }

    /// Models whose attributes equal every given value (Backbone's `where`).
    ///
    /// ```swift
    /// let annsOpen: QueryFilter<Todo> = .matching(["owner": "ann", "done": false])
    /// ```
    ///
    /// - Parameter attributes: The values a model must have.
    /// - Returns: The filter.
    public static func matching(_ attributes: Attributes) -> QueryFilter {
        QueryFilter { model in attributes.allSatisfy { model.get($0.key) == $0.value } }
    }

    /// Models whose typed attribute equals `value`.
    ///
    /// ```swift
    /// let open: QueryFilter<Todo> = .equals(Todo.done, false)
    /// ```
    ///
    /// - Parameters:
    ///   - key: The typed key.
    ///   - value: The value it must have.
    /// - Returns: The filter.
    public static func equals<Value: Equatable>(_ key: AttributeKey<Value>, _ value: Value) -> QueryFilter {
        QueryFilter { $0[key] == value }
    }

    /// Models whose typed attribute passes a test; the test gets `nil` when the attribute is
    /// absent or of another type.
    ///
    /// ```swift
    /// let urgent: QueryFilter<Todo> = .key(Todo.priority) { ($0 ?? 0) >= 3 }
    /// ```
    ///
    /// - Parameters:
    ///   - key: The typed key.
    ///   - isIncluded: The test of its value.
    /// - Returns: The filter.
    public static func key<Value>(_ key: AttributeKey<Value>, _ isIncluded: @escaping (Value?) -> Bool)
        -> QueryFilter
    {
        QueryFilter { isIncluded($0[key]) }
    }

    /// Models that both filters accept.
    ///
    /// ```swift
    /// let openAndMine = QueryFilter<Todo>.equals(Todo.done, false) && .attribute("owner", equals: "ann")
    /// ```
    public static func && (lhs: QueryFilter, rhs: QueryFilter) -> QueryFilter {
        QueryFilter { lhs.test($0) && rhs.test($0) }
    }

    /// Models that either filter accepts.
    ///
    /// ```swift
    /// let visible = QueryFilter<Todo>.equals(Todo.done, false) || .attribute("pinned", equals: true)
    /// ```
    public static func || (lhs: QueryFilter, rhs: QueryFilter) -> QueryFilter {
        QueryFilter { lhs.test($0) || rhs.test($0) }
    }

    /// Models that the filter rejects.
    ///
    /// ```swift
    /// let done = !QueryFilter<Todo>.equals(Todo.done, false)
    /// ```
    public static prefix func ! (filter: QueryFilter) -> QueryFilter {
        QueryFilter { !filter.test($0) }
    }
}
