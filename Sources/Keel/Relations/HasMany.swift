/// A has-many relation: the owner's attribute is a live ``Collection`` of `Child` models.
///
/// Parsing a response merges the records into the same collection by id, so the instances
/// stay; a child's `change`, and `add`, `remove`, `reset` and `sort` in the collection, fire
/// `change:<key>` and `change` on the owner, whose attribute mirrors the children. The
/// children's URLs derive from the owner's: `/users/1/invites`, `/users/1/invites/7`.
///
/// ```swift
/// final class User: Model {
///     static let invites = HasMany<Invite>("invites", encoding: .nestedAttributes)
///     override class var relations: [any Relation] { [invites] }
/// }
/// let invites = user[User.invites]   // Collection<Invite>
/// invites.add(Invite(["email": "ada@example.com"]))
/// ```
public struct HasMany<Child: Model>: Relation, RelationImplementation {
    /// The model class of the children.
    public typealias Target = Child
    /// The owner's attribute, in app names.
    public let key: String
    /// How the children are sent.
    public let encoding: RelationEncoding
    /// The path under the owner's URL of the children's collection; by default the wire name
    /// of ``key``.
    public let path: String?
    /// Whether the children mirror the server's or are only ever added to.
    public let mode: ToManyMode

    /// Declares a has-many relation.
    ///
    /// ```swift
    /// static let invites = HasMany<Invite>("invites", encoding: .nestedAttributes)
    /// static let messages = HasMany<Message>("messages", encoding: .nestedAttributes, mode: .addOnly)
    /// ```
    ///
    /// - Parameters:
    ///   - key: The owner's attribute, in app names.
    ///   - encoding: How the children are sent; embedded by default.
    ///   - path: The path of the children's collection under the owner's URL.
    ///   - mode: Whether the children mirror the server's (``ToManyMode/replace``, the
    ///     default) or are only ever added to (``ToManyMode/addOnly``).
    public init(
        _ key: String,
        encoding: RelationEncoding = .embedded,
        path: String? = nil,
        mode: ToManyMode = .replace
    ) {
        self.key = key
        self.encoding = encoding
        self.path = path
        self.mode = mode
    }

    func makeLink(owner: Model) -> any RelationLink { ManyLink<Child>(self, owner: owner) }

    var linkage: RelationLinkage { .toMany }
}
