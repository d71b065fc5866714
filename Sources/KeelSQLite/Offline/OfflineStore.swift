public import Keel

/// The local side of ``CachingSync``: a copy of the remote's records and a durable queue of
/// the writes made locally, changed together in one transaction.
///
/// ``SQLiteOfflineStore`` implements it on a SQLite file; another store (Core Data, a
/// key-value database) plugs in by implementing these operations with the same guarantees:
///
/// - ``write(_:idempotencyKey:versionCheck:)`` changes the record **and** queues the
///   change atomically, so a crash never leaves one without the other;
/// - ``complete(_:serverRecord:foreignKeys:)`` removes a sent change, stores the server's
///   record and replaces a temporary id everywhere, atomically.
///
/// ```swift
/// struct MyStore: OfflineStore { … }
/// let cache = CachingSync(remote: rest, local: MyStore())
/// ```
public protocol OfflineStore: Sendable {
    /// The attribute that holds record ids, such as `id`.
    var idAttribute: String { get }

    /// Answers a read from the local copy as a REST server would: a record, a list, or 404.
    ///
    /// A record with queued changes carries its state in the `SyncState.headerName`
    /// header; records removed locally but not yet on the server are not returned.
    ///
    /// - Parameter request: A `read` request.
    /// - Returns: The local answer.
    /// - Throws: `SyncError.storeRefused(_:)` (`StoreRefusal.Reason.notFound`) for a
    ///   missing record;
    ///   `SyncError.storage(_:)` when the store fails.
    func read(_ request: SyncRequest) async throws(SyncError) -> SyncResponse

    /// Whether the local copy holds what a read asks for: the record, or the collection
    /// (records of it were stored, from the remote or written locally).
    ///
    /// - Parameter request: A `read` request.
    /// - Returns: `true` when ``read(_:)`` would answer from stored data.
    /// - Throws: `SyncError.storage(_:)` when the store fails.
    func holds(_ request: SyncRequest) async throws(SyncError) -> Bool

    /// Applies a write to the local copy and queues it, in one transaction.
    ///
    /// A create without an id gets a temporary one (``TemporaryID``). The queued change
    /// records the version of the record it was based on, as `versionCheck` finds it.
    ///
    /// - Parameters:
    ///   - request: A `create`, `update`, `patch` or `delete` request.
    ///   - idempotencyKey: The key the change is sent with on every attempt.
    ///   - versionCheck: Where the record's version is.
    /// - Returns: The local answer, with `SyncState.headerName` set to `pending`.
    /// - Throws: `SyncError` as a REST server would answer (404, 422 for a taken id), or
    ///   `SyncError.storage(_:)`; nothing is changed then.
    func write(_ request: SyncRequest, idempotencyKey: String, versionCheck: VersionCheck) async throws(SyncError)
        -> SyncResponse

    /// Stores records the remote answered with. Records with queued changes keep their
    /// local state.
    ///
    /// - Parameters:
    ///   - records: The server's records with their versions.
    ///   - collection: The collection path.
    ///   - isComplete: `true` when `records` is the whole collection: other records that
    ///     have no queued change are removed (orphan deletion).
    /// - Throws: `SyncError.storage(_:)`.
    func store(_ records: [RemoteRecord], in collection: String, isComplete: Bool) async throws(SyncError)

    /// The local record, including one removed by a queued delete.
    ///
    /// - Parameters:
    ///   - id: The record's id.
    ///   - collection: The collection path.
    /// - Returns: The attributes, or `nil`.
    /// - Throws: `SyncError.storage(_:)`.
    func record(_ id: String, in collection: String) async throws(SyncError) -> Attributes?

    /// The queued changes, oldest first.
    ///
    /// - Returns: Every queued change, whatever its state.
    /// - Throws: `SyncError.storage(_:)`.
    func queuedChanges() async throws(SyncError) -> [QueuedChange]

    /// Finishes a change the server accepted, in one transaction: removes it from the
    /// queue and stores the server's record. When the server gave a created record an id
    /// other than the temporary one, that id replaces the temporary one in the record's
    /// key and in every later queued change that mentions it (URL path segments, collection
    /// paths such as `/users/local-1/invites`, query values, and string values at any depth
    /// of the body), and in the records those changes wrote, by the rule of ``TemporaryID``.
    ///
    /// A running ``CachingSync/replay()`` applies the same rule to the changes it loaded, so
    /// it need not load the queue again after each create.
    ///
    /// - Parameters:
    ///   - change: The sent change.
    ///   - serverRecord: The record the server answered with; `nil` for a delete or an
    ///     empty answer.
    ///   - foreignKeys: The declared foreign keys, which a store may use to find the records
    ///     that point to the created one (``SQLiteOfflineStore`` finds every mention without
    ///     them).
    /// - Returns: The local records, other than the created one, whose attributes changed,
    ///   under the collection path and id they had before.
    /// - Throws: `SyncError.storage(_:)`.
    func complete(_ change: QueuedChange, serverRecord: RemoteRecord?, foreignKeys: [ForeignKey])
        async throws(SyncError) -> [RewrittenRecord]

    /// Keeps a change queued in a new state (failed, in conflict, or pending again).
    ///
    /// - Parameters:
    ///   - change: The queued change.
    ///   - state: Its new state.
    /// - Throws: `SyncError.storage(_:)`.
    func mark(_ change: QueuedChange, as state: QueuedChange.State) async throws(SyncError)

    /// Makes a change pending again, based on the server's current version (a conflict
    /// settled for the client: the next replay sends it without reporting a conflict).
    ///
    /// - Parameters:
    ///   - change: The queued change.
    ///   - version: The server's current version.
    /// - Throws: `SyncError.storage(_:)`.
    func retry(_ change: QueuedChange, basedOn version: String?) async throws(SyncError)

    /// Drops a change without sending it; the local record becomes the server's
    /// (`serverRecord`), or is removed when the server has none.
    ///
    /// - Parameters:
    ///   - change: The queued change.
    ///   - serverRecord: The server's record, or `nil`.
    /// - Throws: `SyncError.storage(_:)`.
    func discard(_ change: QueuedChange, serverRecord: RemoteRecord?) async throws(SyncError)

    /// The server's id for a temporary id whose create was sent.
    ///
    /// - Parameters:
    ///   - temporaryID: A ``TemporaryID``.
    ///   - collection: The collection path.
    /// - Returns: The server's id, or `nil` while the create is queued.
    /// - Throws: `SyncError.storage(_:)`.
    func serverID(for temporaryID: String, in collection: String) async throws(SyncError) -> JSONValue?
}

/// A record as the remote answered it, with its version for conflict detection.
///
/// ```swift
/// RemoteRecord(attributes: ["id": 7, "title": "A"], version: "\"7-v2\"")
/// ```
public struct RemoteRecord: Sendable, Hashable {
    /// The record.
    public var attributes: Attributes
    /// Its ETag or version attribute, or `nil`.
    public var version: String?

    /// Creates a remote record.
    ///
    /// ```swift
    /// let record = RemoteRecord(attributes: ["id": 7], version: nil)
    /// ```
    ///
    /// - Parameters:
    ///   - attributes: The record.
    ///   - version: Its version.
    public init(attributes: Attributes, version: String?) {
        self.attributes = attributes
        self.version = version
    }
}

/// A local record whose foreign key was rewritten from a temporary id to the server's.
///
/// ```swift
/// RewrittenRecord(collection: "/comments", id: "local-2", attributes: ["note_id": 7])
/// ```
public struct RewrittenRecord: Sendable, Hashable {
    /// The collection path.
    public var collection: String
    /// The record's id.
    public var id: String
    /// The record as it is now stored.
    public var attributes: Attributes

    /// Describes a rewritten record.
    ///
    /// ```swift
    /// let rewritten = RewrittenRecord(collection: "/comments", id: "3", attributes: ["note_id": 7])
    /// ```
    ///
    /// - Parameters:
    ///   - collection: The collection path.
    ///   - id: The record's id.
    ///   - attributes: The stored record.
    public init(collection: String, id: String, attributes: Attributes) {
        self.collection = collection
        self.id = id
        self.attributes = attributes
    }
}
