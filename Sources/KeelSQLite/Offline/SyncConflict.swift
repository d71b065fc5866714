public import Keel

/// A queued change whose record the server changed (or deleted) after the change was made
/// locally.
///
/// ``CachingSync`` finds it before sending the change, by comparing the server's current
/// version (ETag or version attribute, see ``VersionCheck``) with the version the local
/// change was based on. The ``ConflictPolicy`` decides; a conflict left for a person stays
/// in ``CachingSync/conflicts()`` until ``CachingSync/resolve(_:with:)``.
///
/// ```swift
/// for conflict in try await cache.conflicts() {
///     print(conflict.collection, conflict.recordID, conflict.local ?? [:], conflict.server ?? [:])
/// }
/// ```
public struct SyncConflict: Sendable, Hashable {
    /// The queued change that conflicts.
    public let change: QueuedChange
    /// The local record as the change left it; `nil` for a delete.
    public let local: Attributes?
    /// The server's current record; `nil` when the server deleted it.
    public let server: Attributes?

    /// The collection path of the record.
    public var collection: String { change.collection }
    /// The record's id.
    public var recordID: String { change.recordID }

    /// Describes a conflict.
    ///
    /// ```swift
    /// let conflict = SyncConflict(change: change, local: ["title": "Mine"], server: ["title": "Theirs"])
    /// ```
    ///
    /// - Parameters:
    ///   - change: The queued change.
    ///   - local: The local record.
    ///   - server: The server's record.
    public init(change: QueuedChange, local: Attributes?, server: Attributes?) {
        self.change = change
        self.local = local
        self.server = server
    }
}

/// How a conflict ends.
///
/// ```swift
/// let resolution: ConflictResolution = .merged(["title": "Both", "done": true])
/// ```
public enum ConflictResolution: Sendable, Hashable {
    /// Drop the local change; the local record takes the server's.
    case useServer
    /// Send the local change anyway, overwriting the server's.
    case useClient
    /// Send these attributes as the record (a full update), replacing both.
    case merged(Attributes)
    /// Leave it for a person: the change stays queued in conflict.
    case keep
}

/// Who wins when a queued change conflicts with the server's copy.
///
/// ```swift
/// let policy = ConflictPolicy.resolve { conflict in
///     var merged = conflict.server ?? [:]
///     merged["title"] = conflict.local?["title"]
///     return .merged(merged)
/// }
/// ```
public enum ConflictPolicy: Sendable {
    /// The server's copy wins; the local change is dropped.
    case serverWins
    /// The local change is sent and overwrites the server's copy.
    case clientWins
    /// The conflict is kept for a person (``CachingSync/conflicts()``).
    case manual
    /// A closure decides, for example by merging attributes.
    case resolve(@Sendable (SyncConflict) async -> ConflictResolution)

    /// The decision for a conflict.
    func decide(_ conflict: SyncConflict) async -> ConflictResolution {
        switch self {
        case .serverWins: .useServer
        case .clientWins: .useClient
        case .manual: .keep
        case .resolve(let resolver): await resolver(conflict)
        }
    }
}

/// How ``CachingSync`` tells which version of a record a local change was based on.
///
/// ```swift
/// let check = VersionCheck.attribute("updated_at")
/// ```
public enum VersionCheck: Sendable, Hashable {
    /// No conflict detection: queued changes are sent as they are (last writer wins).
    case none
    /// The `ETag` the server sent with the record; updates also send `If-Match`, and a 412
    /// answer is a conflict too.
    case etag
    /// An attribute the server changes on every write, such as `updated_at` or
    /// `lock_version`.
    case attribute(String)
}
