/// Errors of collection operations.
///
/// ```swift
/// do {
///     try notes.sort()
/// } catch .noComparator {
///     print("set a comparator first")
/// }
/// ```
public enum CollectionError: Error, Sendable, Hashable {
    /// ``Collection/sort(silent:options:)`` was called on a collection without a comparator.
    case noComparator
    /// ``Collection/parse(_:options:)`` returned `nil` for this response: it is not a list
    /// of models.
    case unparsableResponse(JSONValue)
    /// Code that the collection called in the middle of changing its models (a comparator
    /// during a sort; a `change`, `remove` or `invalid` handler, a model initializer or a
    /// `parse` during `set`, `add` or `reset`) tried to change the collection.
    ///
    /// The change was rejected: the inner `add`, `set`, `remove` or `reset` returned
    /// without doing anything, and an outer ``Collection/sort(silent:options:)`` throws
    /// this error and leaves the order as it was. Backbone leaves this case undefined; its
    /// indexes can end up out of step with its models.
    case reentrantMutation
}

extension CollectionError: CustomStringConvertible {
    /// A sentence describing the error.
    ///
    /// ```swift
    /// print(CollectionError.noComparator)  // Cannot sort a collection without a comparator
    /// ```
    public var description: String {
        switch self {
        case .noComparator:
            return "Cannot sort a collection without a comparator"
        case .reentrantMutation:
            return "A callback tried to change the collection while it was sorting or updating; the change was rejected"
        case .unparsableResponse(let response):
            return "The response is not a list of models: \(response.debugDescription.prefix(200))"
        }
    }
}
