/// A ``Sync`` backend made from a ``RecordStore``: the store keeps records, this type does
/// the REST part.
///
/// Each request runs ``RecordStore/respond(to:idAttribute:)`` on the store under one lock,
/// so a request's reads and writes are never interleaved with another's, from any number
/// of tasks and actors. A task cancelled before its request runs throws
/// ``SyncError/cancelled`` and changes nothing.
///
/// ```swift
/// let backend = RecordStoreSync(DictionaryStore())
/// let notes = Collection<Note>(url: "/notes", sync: backend)
/// let note = try await notes.create(["title": "Groceries"])   // id 1
/// backend.withStore { $0.records(in: "/notes")?.count }       // 1
/// ```
public final class RecordStoreSync<Store: RecordStore>: Sync {
    private let store: Lock<Store>

    /// The attribute that holds record ids.
    ///
    /// ```swift
    /// RecordStoreSync(DictionaryStore(), idAttribute: "_id").idAttribute  // "_id"
    /// ```
    public let idAttribute: String

    /// Creates a backend over a store.
    ///
    /// ```swift
    /// let backend = RecordStoreSync(DictionaryStore())
    /// ```
    ///
    /// - Parameters:
    ///   - store: The store; the backend owns it from now on.
    ///   - idAttribute: The attribute that holds record ids.
    public init(_ store: sending Store, idAttribute: String = "id") {
        self.store = Lock(store)
        self.idAttribute = idAttribute
    }

    /// Performs one operation on the store.
    ///
    /// ```swift
    /// let response = try await backend.perform(SyncRequest(method: .read, url: URL(string: "/notes")!))
    /// ```
    ///
    /// - Parameter request: The operation.
    /// - Returns: The record or list, with REST status codes (201 for create, 204 for delete).
    /// - Throws: ``SyncError``: 400, 404 and 422 as ``RecordStore/respond(to:idAttribute:)``
    ///   describes, the store's own errors, and ``SyncError/cancelled``.
    public func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        if Task.isCancelled { throw .cancelled }
        return try store.withLock { (store) throws(SyncError) -> SyncResponse in
            try store.respond(to: request, idAttribute: idAttribute)
        }
    }

    /// Reads or changes the store directly, under the lock the requests use.
    ///
    /// ```swift
    /// let count = backend.withStore { $0.records(in: "/notes")?.count ?? 0 }
    /// ```
    ///
    /// - Parameter body: Work on the store; it must not call the backend.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func withStore<Result: Sendable, Failure: Error>(
        _ body: (inout Store) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try store.withLock { (store) throws(Failure) -> Result in try body(&store) }
    }
}
