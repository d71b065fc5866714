/// How a collection asks its server for only what changed since the last pull, and how the
/// answer says what changed: the query parameter, where the next cursor comes from, and how
/// deletions are told.
///
/// The first pull (no cursor yet) reads the whole collection and reconciles the local copy
/// with it; each later one sends the cursor in ``parameter``. A server that rejects a cursor
/// (`410 Gone`, or `400`/`422` naming the parameter, as an expired token does) gets a full
/// fetch with reconcile instead.
///
/// ```swift
/// // Rails: scope :updated_since, ->(time) { where("updated_at > ?", time) }, soft deletes in deleted_at
/// let report = try await store.pull(Todo.self, using: .rails)
///
/// // A server with a change log: GET /todos?since=<token> → {"changes": [...], "deleted": [3, 9], "cursor": "…"}
/// let log = IncrementalPull(
///     parameter: "since",
///     cursor: .bodyField("cursor"),
///     recordsKey: "changes",
///     tombstones: .deletedIDs("deleted")
/// )
/// ```
public struct IncrementalPull: Sendable, Hashable {
    /// Where the cursor for the next pull is read from.
    ///
    /// ```swift
    /// let source = IncrementalPull.CursorSource.header("X-Changes-Cursor")
    /// ```
    public enum CursorSource: Sendable, Hashable {
        /// A response header, such as `X-Changes-Cursor`.
        case header(String)
        /// A field of a JSON object answer, such as `cursor` or `meta.cursor` (dots go down).
        case bodyField(String)
        /// The newest value of an attribute among the records answered, such as
        /// `updated_at`; the cursor stays when none is answered.
        case newestAttribute(String)
    }

    /// How the answer tells that a record was deleted.
    ///
    /// Whatever the style, a full fetch deletes the records it does not return, and a
    /// change that carries only an id is read again, with a `404` or `410 Gone` answer
    /// taken as a deletion.
    ///
    /// ```swift
    /// let soft = IncrementalPull.Tombstones.attribute("deleted_at")
    /// ```
    public enum Tombstones: Sendable, Hashable {
        /// Deleted records are returned with this attribute set (a soft delete's
        /// `deleted_at` or `discarded_at`).
        case attribute(String)
        /// A JSON object answer lists the deleted ids in this field (dots go down).
        case deletedIDs(String)
        /// The answer tells no deletions; only full fetches find them.
        case none
    }

    /// The query parameter that carries the cursor, such as `updated_since`.
    public var parameter: String
    /// Where the next cursor comes from.
    public var cursor: CursorSource
    /// The field of a JSON object answer that holds the records (dots go down), or `nil`
    /// when the answer is the array of records; an array answer is always taken as the records.
    public var recordsKey: String?
    /// How deletions are told.
    public var tombstones: Tombstones
    /// The attribute that holds each record's version, which decides the order of changes
    /// (see ``RecordVersion``); `nil` applies every change.
    public var versionAttribute: String?
    /// Other query parameters for every pull, such as a page size.
    public var query: [String: String]

    /// Describes how a collection pulls its changes.
    ///
    /// ```swift
    /// let pull = IncrementalPull(parameter: "since", cursor: .header("X-Cursor"), tombstones: .deletedIDs("deleted"))
    /// ```
    ///
    /// - Parameters:
    ///   - parameter: The query parameter that carries the cursor.
    ///   - cursor: Where the next cursor comes from.
    ///   - recordsKey: The field that holds the records, or `nil` for an array answer.
    ///   - tombstones: How deletions are told.
    ///   - versionAttribute: The attribute that holds each record's version.
    ///   - query: Other query parameters for every pull.
    public init(
        parameter: String,
        cursor: CursorSource,
        recordsKey: String? = nil,
        tombstones: Tombstones,
        versionAttribute: String? = "updated_at",
        query: [String: String] = [:]
    ) {
        self.parameter = parameter
        self.cursor = cursor
        self.recordsKey = recordsKey
        self.tombstones = tombstones
        self.versionAttribute = versionAttribute
        self.query = query
    }

    /// A Rails resource with an `updated_since` scope on `updated_at` and soft deletes in
    /// `deleted_at` (Rails' `discard`/`paranoia` style): `GET /todos?updated_since=<time>`
    /// answers the records changed after the time, deleted ones included.
    ///
    /// ```ruby
    /// scope :updated_since, ->(time) { where("updated_at > ?", Time.iso8601(time)) }
    /// ```
    ///
    /// ```swift
    /// try await store.pull(Todo.self, using: .rails)
    /// ```
    public static let rails = IncrementalPull(
        parameter: "updated_since",
        cursor: .newestAttribute("updated_at"),
        tombstones: .attribute("deleted_at")
    )

    /// A Django REST framework view set whose `get_queryset` filters on an
    /// `updated_since` query parameter (`updated_at__gt`) and keeps soft-deleted rows with a
    /// `deleted_at` time; a paginated answer's records are read from `results`.
    ///
    /// ```swift
    /// try await store.pull(Article.self, using: .djangoREST)
    /// ```
    public static let djangoREST = IncrementalPull(
        parameter: "updated_since",
        cursor: .newestAttribute("updated_at"),
        recordsKey: "results",
        tombstones: .attribute("deleted_at")
    )
}
