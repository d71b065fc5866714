public import Keel

/// The ids ``CachingSync`` gives records created while their create is still queued:
/// `local-1`, `local-2`, … (one counter per store file, never reused).
///
/// When the create reaches the server, the server's id replaces the temporary one in the
/// local record, in the foreign keys of records that point to it (see ``ForeignKey``), in
/// the URLs and bodies of later queued changes, and, through
/// `IdentityMap/apply(_:)`, in live models.
///
/// ```swift
/// let note = try await notes.create(["title": "Offline"])
/// TemporaryID.isTemporary(note.id)  // true until the queue is replayed
/// ```
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
