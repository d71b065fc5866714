/// A has-one relation: the owner's attribute is one embedded `Child` model, or none.
///
/// Parsing a response merges into the same instance while the id stays the same (or neither
/// has one) and replaces it when the id changes; the child's changes fire `change:<key>` and
/// `change` on the owner.
///
/// ```swift
/// final class User: Model {
///     static let profile = HasOne<Profile>("profile", encoding: .nestedAttributes)
///     override class var relations: [any Relation] { [profile] }
/// }
/// user[User.profile]?.set(["bio": "Engineer"])
/// ```
public struct HasOne<Child: Model>: Relation, RelationImplementation {
    /// The model class of the child.
    public typealias Target = Child
    /// The owner's attribute, in app names.
    public let key: String
    /// How the child is sent.
    public let encoding: RelationEncoding

    /// Declares a has-one relation.
    ///
    /// ```swift
    /// static let profile = HasOne<Profile>("profile")
    /// ```
    ///
    /// - Parameters:
    ///   - key: The owner's attribute, in app names.
    ///   - encoding: How the child is sent; embedded by default.
    public init(_ key: String, encoding: RelationEncoding = .embedded) {
        self.key = key
        self.encoding = encoding
    }

    func makeLink(owner: Model) -> any RelationLink {
        OneLink<Child>(key: key, encoding: encoding, foreignKey: nil, owner: owner)
    }
}

/// A belongs-to relation: a foreign key attribute (`organizationId`) and, when the server
/// embeds it, the `Parent` record as a live model under ``key``.
///
/// Setting the relation with ``Model/subscript(_:)-(BelongsTo<Parent>)`` also sets the foreign key. By default
/// only the foreign key is sent.
///
/// ```swift
/// final class User: Model {
///     static let organization = BelongsTo<Organization>("organization", foreignKey: "organizationId")
///     override class var relations: [any Relation] { [organization] }
/// }
/// user[User.organization]?["name"]
/// ```
public struct BelongsTo<Parent: Model>: Relation, RelationImplementation {
    /// The model class of the parent.
    public typealias Target = Parent
    /// The owner's attribute that embeds the parent, in app names.
    public let key: String
    /// The owner's attribute that holds the parent's id, in app names.
    public let foreignKey: String
    /// How the parent is sent: ``RelationEncoding/ids`` (the foreign key alone) by default.
    public let encoding: RelationEncoding

    /// Declares a belongs-to relation.
    ///
    /// ```swift
    /// static let author = BelongsTo<Person>("author", foreignKey: "authorId")
    /// ```
    ///
    /// - Parameters:
    ///   - key: The owner's attribute that embeds the parent.
    ///   - foreignKey: The owner's attribute with the parent's id; `<key>Id` by default.
    ///   - encoding: How the parent is sent.
    public init(_ key: String, foreignKey: String? = nil, encoding: RelationEncoding = .ids) {
        self.key = key
        self.foreignKey = foreignKey ?? key + "Id"
        self.encoding = encoding
    }

    func makeLink(owner: Model) -> any RelationLink {
        OneLink<Parent>(key: key, encoding: encoding, foreignKey: foreignKey, owner: owner)
    }
}
