/// Where a model stands with its server: in step, waiting to be sent, rejected, or in
/// conflict with a change made on the server.
///
/// Every model has one (``Model/syncState``). A backend that answers at once and sends
/// later (KeelSQLite's `CachingSync`) reports `pending` through the
/// ``headerName`` response header; any other successful sync makes a model `synced`. A
/// failed sync through a ``SyncStateReporting`` backend makes it `failed` with the error
/// (other backends report failures with the `error` event alone, as Backbone does).
///
/// ```swift
/// switch note.syncState {
/// case .synced: "✓"
/// case .pending: "⏳"
/// case .failed(let error): "⚠︎ \(error)"
/// case .conflict: "needs a decision"
/// }
/// ```
public enum SyncState: Sendable, Hashable {
    /// The server has the model as it is.
    case synced
    /// A change is stored locally and waits to be sent.
    case pending
    /// The last sync failed, or the server rejected the queued change.
    case failed(SyncError)
    /// The server's copy changed since the local change was made; a policy or a person
    /// decides which wins.
    case conflict

    /// The response header a backend sets to report the record's state
    /// (`synced`, `pending`, `conflict`, or `failed <status>`).
    ///
    /// ```swift
    /// SyncResponse(status: 201, headers: [SyncState.headerName: "pending"])
    /// ```
    public static let headerName = "X-Keel-Sync-State"

    /// ``headerName`` as ``SyncResponse/headers`` keeps names: lower-cased.
    private static let lowercasedHeaderName = headerName.lowercased()

    /// The state a response reports in ``headerName``; `synced` without one.
    ///
    /// ```swift
    /// SyncState(response: SyncResponse(headers: ["X-Keel-Sync-State": "pending"]))  // .pending
    /// ```
    ///
    /// - Parameter response: A successful response.
    public init(response: SyncResponse) {
        // Most responses carry no state (only a caching backend sets it): `synced` at once,
        // without lower-casing the name and splitting a default text (5 k instructions a save).
        guard let value = Self.stateHeader(in: response.headers) else {
            self = .synced
            return
        }
        let words = value.split(separator: " ")
        switch words.first {
        case "pending": self = .pending
        case "conflict": self = .conflict
        case "failed": self = .failed(.httpStatus(words.dropFirst().first.flatMap { Int($0) } ?? 0, body: nil))
        default: self = .synced
        }
    }

    /// The value of the ``headerName`` header among `headers`, whose names are lower-cased.
    ///
    /// A store's answers carry a header or two (an `ETag`): comparing their names with ours is
    /// cheaper than hashing ours for a lookup (about 300 instructions an answer).
    ///
    /// - Complexity: O(*n*) in the number of headers, up to four; O(1) without any or above.
    private static func stateHeader(in headers: [String: String]) -> String? {
        guard !headers.isEmpty else { return nil }
        guard headers.count <= 4 else { return headers[lowercasedHeaderName] }
        let name = lowercasedHeaderName
        for header in headers where header.key.utf8.count == name.utf8.count && header.key == name {
            return header.value
        }
        return nil
    }

    /// The value of ``headerName`` for this state.
    ///
    /// ```swift
    /// SyncState.pending.headerValue  // "pending"
    /// ```
    public var headerValue: String {
        switch self {
        case .synced: "synced"
        case .pending: "pending"
        case .conflict: "conflict"
        case .failed(let error): "failed" + (error.status.map { " \($0)" } ?? "")
        }
    }
}

/// A backend whose failures set ``Model/syncState`` to ``SyncState/failed(_:)`` (with a
/// `syncState` event before `error`), such as KeelSQLite's `CachingSync`.
///
/// The marker is found down a chain of decorators (``SyncDecorator``), so models of
/// `RetryingSync(cache)` report failures as models of `cache` do; conform a decorator of
/// your own to ``SyncDecorator``, or to this protocol.
///
/// ```swift
/// extension MyQueueingSync: SyncStateReporting {}
/// ```
public protocol SyncStateReporting: Sync {}

extension EventName {
    /// A model's ``Model/syncState`` changed; the event's `error` is the failure for
    /// ``SyncState/failed(_:)``.
    ///
    /// ```swift
    /// note.on(.syncState) { event in print(event.model?.syncState ?? .synced) }
    /// ```
    public static let syncState: EventName = "syncState"
}
