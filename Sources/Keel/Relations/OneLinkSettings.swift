/// What every link of one ``HasOne`` or ``BelongsTo`` shares: the owner's attribute, the
/// encoding and, for a belongs-to, the foreign key.
///
/// Made once, with the relation, and referenced by each ``OneLink``: the link of every post
/// that belongs to an author then holds one reference instead of two strings and the
/// encoding, 32 bytes fewer a link.
final class OneLinkSettings: Sendable {
    /// The owner's attribute that holds the related model, in app names.
    let key: String
    /// How the related model is sent.
    let encoding: RelationEncoding
    /// The owner's attribute that holds the related model's id (a belongs-to's); `nil` for a
    /// has-one.
    let foreignKey: String?

    init(key: String, encoding: RelationEncoding, foreignKey: String?) {
        self.key = key
        self.encoding = encoding
        self.foreignKey = foreignKey
    }
}
