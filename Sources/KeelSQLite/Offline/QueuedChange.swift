public import Keel

public import struct Foundation.URL

/// A write stored locally and waiting in the durable queue to be sent to the remote.
///
/// ``CachingSync`` queues one per create, update, patch and delete, in the same
/// transaction as the local record, and sends them in ``sequence`` order. Its
/// ``idempotencyKey`` goes with every attempt in the `Idempotency-Key` header, so a server
/// that honours the header creates the record once however often a crash makes the
/// change be sent again.
///
/// ```swift
/// for change in try await cache.queuedChanges() {
///     print(change.sequence, change.method, change.url, change.state)
/// }
/// ```
public struct QueuedChange: Sendable, Hashable, Identifiable {
    /// Where a queued change stands.
    public enum State: Sendable, Hashable {
        /// Waiting to be sent.
        case pending
        /// The server rejected it (a 4xx other than a conflict); it stays queued, and later
        /// changes of the same record wait behind it, until it is retried or discarded.
        case failed(SyncError)
        /// The server's copy changed since the change was made; the change waits for
        /// ``CachingSync/resolve(_:with:)``.
        case conflict(server: Attributes?)
    }

    /// The position in the queue: changes are sent in ascending order.
    public let sequence: Int
    /// The verb: `create`, `update`, `patch` or `delete`.
    public let method: SyncMethod
    /// The request URL as queued; a temporary id in it is replaced by the server's when the
    /// change is sent.
    public let url: URL
    /// The collection path of the record, such as `/notes`.
    public let collection: String
    /// The record's id (a temporary one for a record created offline).
    public let recordID: String
    /// The record the change carries, without the root key of its request
    /// (`SyncRequest.unwrappedBody`); temporary ids in it are replaced by the server's.
    public let body: JSONValue?
    /// The extra headers of the original request.
    public let headers: [String: String]
    /// The value of the `Idempotency-Key` header, the same on every attempt.
    public let idempotencyKey: String
    /// The server's version of the record the change was made on (an ETag or the value of
    /// the version attribute), used to detect conflicts; `nil` when unknown.
    public let baseVersion: String?
    /// Whether it waits, failed or is in conflict.
    public let state: State
    /// The root key the server expects the record wrapped in (`"note"` for Rails'
    /// `{"note": {…}}`), from the original request's `SyncRequest.rootKey`; `nil` when
    /// the record is sent as it is.
    public let rootKey: String?

    /// The request that sends the change: its method, URL and headers, and ``body`` wrapped
    /// in ``rootKey``.
    ///
    /// ```swift
    /// let response = try await remote.perform(change.request)
    /// ```
    public var request: SyncRequest {
        var request = SyncRequest(method: method, url: url, body: Self.wrap(body, in: rootKey), headers: headers)
        request.rootKey = rootKey
        return request
    }

    /// A record wrapped in a root key, or as it is without one.
    static func wrap(_ record: JSONValue?, in rootKey: String?) -> JSONValue? {
        guard let rootKey, let record else { return record }
        return .object([rootKey: record])
    }

    /// The queue's ``sequence``.
    public var id: Int { sequence }

    /// Creates a queued change (stores implementing ``OfflineStore`` build these).
    ///
    /// ```swift
    /// let change = QueuedChange(
    ///     sequence: 1, method: .create, url: URL(string: "/notes")!, collection: "/notes",
    ///     recordID: "local-1", body: ["title": "A"], headers: [:], idempotencyKey: UUID().uuidString,
    ///     baseVersion: nil, state: .pending)
    /// ```
    ///
    /// - Parameters: See the properties of the same names.
    public init(
        sequence: Int,
        method: SyncMethod,
        url: URL,
        collection: String,
        recordID: String,
        body: JSONValue?,
        headers: [String: String],
        idempotencyKey: String,
        baseVersion: String?,
        state: State,
        rootKey: String? = nil
    ) {
        self.sequence = sequence
        self.method = method
        self.url = url
        self.collection = collection
        self.recordID = recordID
        self.body = body
        self.headers = headers
        self.idempotencyKey = idempotencyKey
        self.baseVersion = baseVersion
        self.state = state
        self.rootKey = rootKey
    }
}

extension QueuedChange.State {
    /// The record-level state this change gives its record.
    var syncState: SyncState {
        switch self {
        case .pending: .pending
        case .failed(let error): .failed(error)
        case .conflict: .conflict
        }
    }
}
