/// When a ``LiveQuery`` sends a request to load its records: Apollo's cache policies, on
/// the models a ``Store`` holds.
///
/// The query always shows the models the store holds; the policy only decides whether
/// ``LiveQuery/load(policy:)`` asks the backend too.
///
/// ```swift
/// let open = store.query(Todo.self, filter: .equals(Todo.done, false), policy: .cacheAndNetwork)
/// try await open.load()
/// ```
public enum CachePolicy: String, Sendable, Hashable, CaseIterable {
    /// Sends a request only when the query's records were never loaded, were invalidated,
    /// or are older than the query's `staleTime`; otherwise the held models answer.
    case cacheFirst
    /// Shows the held models and always sends a request, updating the models in place
    /// when the answer arrives (stale-while-revalidate).
    case cacheAndNetwork
    /// Always sends a request, and asks a caching backend (`CachingSync` in `KeelSQLite`)
    /// to answer from the server only, never from its local copy.
    case networkOnly
    /// Never sends a request: the query shows what the store holds.
    case cacheOnly
}
