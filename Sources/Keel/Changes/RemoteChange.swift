/// One change the server made to one record: created, updated or deleted, with the
/// record's version.
///
/// Pulled changes (``IncrementalPull``) and pushed ones (a ``PushSource``) are the same
/// value, applied the same way (``Store/apply(_:to:)``): a record joins or updates the
/// store's one instance, a deletion takes it out of the store, its queries and its
/// collections. The version decides the order: a change whose version is not newer than
/// the one already applied to the record is skipped, so nothing is applied twice or out of
/// order.
///
/// A change may carry only the record's id (a server that pushes ids): it is read from the
/// server before it is applied, and a `404` or `410 Gone` answer makes it a deletion.
///
/// ```swift
/// let change = RemoteChange(.updated, id: 7, attributes: ["id": 7, "title": "Milk"], version: "2026-05-01T12:00:00Z")
/// ```
public struct RemoteChange: Sendable, Hashable {
    /// What happened to the record.
    ///
    /// ```swift
    /// RemoteChange.Kind(rawValue: "deleted")  // .deleted
    /// ```
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The record is new on the server.
        case created
        /// The record changed on the server.
        case updated
        /// The record is gone from the server.
        case deleted
    }

    /// What happened.
    public var kind: Kind
    /// The record's id.
    public var id: JSONValue
    /// The record as the server has it now; `nil` for a deletion, or when the server sent
    /// only the id (the record is then read before it is applied).
    public var attributes: Attributes?
    /// The record's version (an `updated_at` timestamp, a `lock_version` number, an ETag);
    /// `nil` when the server gave none, which never counts as older.
    public var version: String?

    /// Describes a change.
    ///
    /// ```swift
    /// let gone = RemoteChange(.deleted, id: 7)
    /// ```
    ///
    /// - Parameters:
    ///   - kind: What happened.
    ///   - id: The record's id.
    ///   - attributes: The record now, or `nil` for a deletion or an id-only change.
    ///   - version: The record's version.
    public init(_ kind: Kind, id: JSONValue, attributes: Attributes? = nil, version: String? = nil) {
        self.kind = kind
        self.id = id
        self.attributes = attributes
        self.version = version
    }

    /// Whether the change must be read from the server before it is applied: a creation or
    /// update that carries no attribute but the id.
    ///
    /// ```swift
    /// RemoteChange(.updated, id: 7).needsRecord  // true
    /// ```
    public var needsRecord: Bool {
        guard kind != .deleted else { return false }
        guard let attributes else { return true }
        return attributes.count <= 1 && attributes.keys.allSatisfy { attributes[$0] == id }
    }
}
