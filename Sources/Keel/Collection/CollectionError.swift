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
        case .unparsableResponse(let response):
            return "The response is not a list of models: \(String(describing: response).prefix(200))"
        }
    }
}
