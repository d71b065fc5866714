/// A backend that answers several requests as one transaction: all of them take effect,
/// or none does. `SQLiteSync` is one.
///
/// ``AtomicOperations/save(_:destroying:options:)`` and
/// ``Store/saveChanges(atomically:options:)`` send their models through it in one
/// transaction when the models' backend is one itself: one found down a chain of
/// decorators is not used, since that would skip what the decorators add (see ``SyncDecorator``).
///
/// ```swift
/// let responses = try await store.performInTransaction([
///     SyncRequest(method: .create, url: URL(filePath: "/lists"), body: ["name": "Groceries"]),
///     SyncRequest(method: .create, url: URL(filePath: "/items"), body: ["title": "Milk"]),
/// ], links: [RequestLink(request: 1, keyPath: ["list_id"], source: 0)])
/// ```
public protocol TransactionalSync: Sync {
    /// Answers `requests` in order inside one transaction, and commits only when every one
    /// succeeded.
    ///
    /// Before a request is answered, each of its `links` writes into its body the id of
    /// the record an earlier create made, so a new child names its new parent.
    ///
    /// ```swift
    /// let answers = try await store.performInTransaction(requests, links: [])
    /// ```
    ///
    /// - Parameters:
    ///   - requests: The requests, in order.
    ///   - links: The ids to carry from creates to later requests' bodies.
    /// - Returns: One response per request, in order.
    /// - Throws: The first failing request's ``SyncError``; then nothing was stored.
    /// - Precondition: Each link's `source` is a create that comes before its `request`, and
    ///   its `keyPath` is not empty.
    func performInTransaction(_ requests: [SyncRequest], links: [RequestLink]) async throws(SyncError) -> [SyncResponse]
}

/// In a ``TransactionalSync`` transaction, the new id of the record that one create made,
/// written into a later request's body before that request is answered.
///
/// ```swift
/// RequestLink(request: 1, keyPath: ["list_id"], source: 0)   // requests[1].body["list_id"] = the new list's id
/// ```
public struct RequestLink: Sendable, Hashable {
    /// The index of the request whose body gets the id.
    public var request: Int
    /// Where in that body: `["list_id"]`, or `["item", "list_id"]` under a root key.
    public var keyPath: [String]
    /// The index of the earlier create whose record's id is written.
    public var source: Int

    /// Creates a link.
    ///
    /// ```swift
    /// let link = RequestLink(request: 1, keyPath: ["list_id"], source: 0)
    /// ```
    ///
    /// - Parameters:
    ///   - request: The index of the request whose body gets the id.
    ///   - keyPath: Where in that body.
    ///   - source: The index of the earlier create.
    public init(request: Int, keyPath: [String], source: Int) {
        self.request = request
        self.keyPath = keyPath
        self.source = source
    }
}

extension JSONValue {
    /// A copy with `value` at `keyPath`, creating the objects on the way.
    package func setting(_ value: JSONValue, at keyPath: some Swift.Collection<String>) -> JSONValue {
        guard let key = keyPath.first else { return value }
        var object = objectValue ?? [:]
        object[key] = (object[key] ?? .null).setting(value, at: keyPath.dropFirst())
        return .object(object)
    }
}
