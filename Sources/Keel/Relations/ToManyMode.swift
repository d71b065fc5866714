/// Whether a ``HasMany``'s children mirror the server's, or are only ever added to (NSRails'
/// `shouldReplaceCollectionForProperty:`).
///
/// ```swift
/// static let messages = HasMany<Message>("messages", encoding: .nestedAttributes, mode: .addOnly)
/// ```
public enum ToManyMode: Sendable, Hashable {
    /// The children mirror the server: a response's children replace them (merged by id, the
    /// ones it leaves out removed), and a save sends the new children, the changed ones and,
    /// under ``RelationEncoding/nestedAttributes``, `_destroy` for the removed ones.
    case replace
    /// Children are only ever added: a response's children are added or merged by id and none
    /// is removed, and a save sends only the new children (under
    /// ``RelationEncoding/nestedAttributes`` and ``RelationEncoding/embedded``) and those
    /// marked with ``Model/markForDestruction()``; a child removed locally is forgotten, not
    /// destroyed. ``RelationEncoding/ids`` still sends every id, since a list of ids replaces
    /// the server's.
    case addOnly
}
