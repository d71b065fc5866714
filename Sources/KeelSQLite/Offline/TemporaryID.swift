public import Keel

/// The ids ``CachingSync`` gives records created while their create is still queued:
/// `local-1`, `local-2`, … (one counter per store file, never reused).
///
/// When the create reaches the server, the server's id replaces the temporary one in the
/// local record, in the foreign keys of records that point to it (see ``ForeignKey``), in
/// every later queued change that mentions it, in the records those changes wrote and,
/// through `IdentityMap/apply(_:)`, in live models. A change mentions a temporary id with a
/// whole path segment of its URL (`POST /users/local-1/invites`, where the invite's
/// collection path becomes `/users/7/invites`), a whole query value (`?user_id=local-1`), or
/// a string value anywhere in its body (`"user_id": "local-1"`,
/// `"members": [{"team": "local-1"}]`); `local-10` does not mention `local-1`. A change
/// that mentions a record whose create is still queued (say, a create the server
/// rejected) waits behind it instead of reaching the server with the temporary id.
///
/// ```swift
/// let user = try await users.create(["name": "Ada"])               // offline: "local-1"
/// let invites = Collection<Model>(url: "/users/local-1/invites", sync: cache)  // the user's invites
/// _ = try await invites.create(["email": "ada@example.com"])      // POST /users/local-1/invites, queued
/// try await cache.replay()                                         // sends POST /users/7/invites
/// ```
///
/// > Warning: A string attribute whose whole value equals a temporary id (a title that
/// > reads `local-1`) is taken for a mention of that record and rewritten too.
public enum TemporaryID {
    /// The prefix of every temporary id.
    ///
    /// ```swift
    /// TemporaryID.prefix  // "local-"
    /// ```
    public static let prefix = "local-"

    /// Whether an id is a temporary one.
    ///
    /// ```swift
    /// TemporaryID.isTemporary("local-3")  // true
    /// TemporaryID.isTemporary(3)          // false
    /// ```
    ///
    /// - Parameter id: A record id.
    /// - Returns: `true` for a string that starts with ``prefix``.
    public static func isTemporary(_ id: JSONValue?) -> Bool {
        id?.stringValue.map(isTemporary) ?? false
    }

    /// Whether the text of an id is a temporary one.
    ///
    /// ```swift
    /// TemporaryID.isTemporary("local-3" as String)  // true
    /// ```
    ///
    /// - Parameter id: The id as text.
    /// - Returns: `true` when it starts with ``prefix``.
    public static func isTemporary(_ id: String) -> Bool {
        id.hasPrefix(prefix)
    }

    /// The temporary id with a number.
    static func make(_ number: Int) -> String { prefix + String(number) }
}
