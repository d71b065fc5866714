/// A relation declared on a model class: ``HasMany``, ``HasOne`` or ``BelongsTo``.
///
/// List a class's relations in ``Model/relations``; each is a live model or collection that
/// the owner's attribute of the same name mirrors.
///
/// ```swift
/// final class User: Model {
///     static let invites = HasMany<Invite>("invites", encoding: .nestedAttributes)
///     override class var relations: [any Relation] { [invites] }
/// }
/// ```
public protocol Relation: Sendable {
    /// The model class on the other side.
    associatedtype Target: Model
    /// The owner's attribute that holds the relation, in app names.
    var key: String { get }
    /// How the relation is sent to the server.
    var encoding: RelationEncoding { get }
}

/// How a relation goes into request bodies.
///
/// ```swift
/// static let invites = HasMany<Invite>("invites", encoding: .nestedAttributes)
/// ```
public enum RelationEncoding: Sendable, Hashable {
    /// The related records in full under the relation's key (`"invites": [{…}, …]`).
    case embedded
    /// Rails' `accepts_nested_attributes_for`: `<key>_attributes` with the new and changed
    /// records only, and `{"id": 7, "_destroy": true}` for each record removed since the last
    /// sync (`"invites_attributes": [{"email": "new@x"}, {"id": 7, "_destroy": true}]`).
    case nestedAttributes
    /// Only the ids: `<singular>_ids` for a has-many (`invite_ids`); for a belongs-to the
    /// foreign key attribute alone (`organization_id`), the embedded record not at all.
    case ids
    /// Not sent.
    case omitted
}

/// The behaviour behind a relation declaration.
protocol RelationImplementation: Relation {
    /// Creates the live side of the relation for one owner.
    func makeLink(owner: Model) -> any RelationLink
    /// Creates the live side of the relation, the owner's only one, as the owner's extras
    /// (``OneLink``), whose ``ModelExtras/relationLinks`` name it; `nil` for a relation whose
    /// link cannot be (``HasMany``).
    func makeLinkAsExtras(owner: Model) -> ModelExtras?
    /// The resource path an owner without a URL of its own lives under, if the relation
    /// nests it (a ``BelongsTo`` with `nestsURL`).
    func nestedBase(for owner: Model) -> String?
    /// How many records the relation links to, and the owner's foreign key for them, for
    /// wire formats that send linkage (JSON:API's `relationships`).
    var linkage: RelationLinkage { get }
}

extension RelationImplementation {
    func nestedBase(for owner: Model) -> String? { nil }

    func makeLinkAsExtras(owner: Model) -> ModelExtras? { nil }

    /// The model class on the other side, as a value.
    var targetType: Model.Type { Target.self }
}

/// The shape of a relation's linkage: one record (with the owner's foreign key, for a
/// belongs-to) or many.
enum RelationLinkage: Equatable {
    case toOne(foreignKey: String?)
    case toMany
}
