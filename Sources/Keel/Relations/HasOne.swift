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
    /// The link's class, resolved once: asking the runtime for `OneLink<Child>`'s metadata for
    /// every owner built cost a lookup in its table of generic instances.
    private let linkType = OneLink<Child>.self
    /// What the links share, made once.
    private let linkSettings: OneLinkSettings

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
        linkSettings = OneLinkSettings(key: key, encoding: encoding, foreignKey: nil)
    }

    func makeLink(owner: Model) -> any RelationLink {
        linkType.init(settings: linkSettings, owner: owner)
    }

    func makeLinkAsExtras(owner: Model) -> ModelExtras? {
        linkType.init(settings: linkSettings, owner: owner).asOwnerExtras()
    }

    var linkage: RelationLinkage { .toOne(foreignKey: nil) }
}

/// A belongs-to relation: a foreign key attribute (`organizationId`) and, when the server
/// embeds it, the `Parent` record as a live model under ``key``.
///
/// Setting the relation also sets the foreign key. By default only the foreign key is sent.
/// With `nestsURL`, a model without a URL of its own lives under its parent's:
/// `Invite(["userId": 1]).url()` is `/users/1/invites`.
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
    /// Whether the owner's URL is under its parent's (`/users/1/invites/7` for an invite whose
    /// `userId` is 1), when the owner has no collection URL and no `urlRoot`.
    public let nestsURL: Bool
    /// The link's class, resolved once, as for a has-one.
    private let linkType = OneLink<Parent>.self
    /// What the links share, made once.
    private let linkSettings: OneLinkSettings

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
    ///   - nestsURL: Put the owner's URL under its parent's.
    public init(_ key: String, foreignKey: String? = nil, encoding: RelationEncoding = .ids, nestsURL: Bool = false) {
        self.key = key
        self.foreignKey = foreignKey ?? key + "Id"
        self.encoding = encoding
        self.nestsURL = nestsURL
        linkSettings = OneLinkSettings(key: key, encoding: encoding, foreignKey: self.foreignKey)
    }

    func makeLink(owner: Model) -> any RelationLink {
        linkType.init(settings: linkSettings, owner: owner)
    }

    func makeLinkAsExtras(owner: Model) -> ModelExtras? {
        linkType.init(settings: linkSettings, owner: owner).asOwnerExtras()
    }

    var linkage: RelationLinkage { .toOne(foreignKey: foreignKey) }

    func nestedBase(for owner: Model) -> String? {
        guard nestsURL, let parentID = owner.storage[foreignKey], !parentID.isNull,
            let parentRoot = Parent.urlRoot, let segment = try? URLPath.recordSegment(for: parentID)
        else { return nil }
        let resource = type(of: owner).pluralResourceName
        return URLPath.join(URLPath.join(parentRoot, segment), resource)
    }
}
