public import Keel

/// An attribute of one collection's records that holds the id of a record in another:
/// `note_id` of `/comments` points to `/notes`.
///
/// ``CachingSync`` rewrites these when a record created offline gets its server id, so a
/// child created offline under a parent created offline reaches the server pointing at
/// the parent's real id. Declare them in ``CachingSync/Configuration/foreignKeys``, by
/// hand or from a model class's `BelongsTo` relations with ``foreignKeys(of:in:)``.
///
/// ```swift
/// ForeignKey(collection: "/comments", attribute: "note_id", references: "/notes")
/// ```
public struct ForeignKey: Sendable, Hashable {
    /// The collection path of the records that hold the key, such as `/comments`.
    public let collection: String
    /// The attribute as it is stored and sent (the wire name), such as `note_id`.
    public let attribute: String
    /// The collection path of the records it points to, such as `/notes`.
    public let references: String

    /// Declares a foreign key.
    ///
    /// ```swift
    /// let key = ForeignKey(collection: "/drf/books", attribute: "author", references: "/drf/authors")
    /// ```
    ///
    /// - Parameters:
    ///   - collection: The collection path of the records that hold the key.
    ///   - attribute: The wire name of the attribute.
    ///   - references: The collection path of the records it points to.
    public init(collection: String, attribute: String, references: String) {
        self.collection = CachePath.normalized(collection)
        self.attribute = attribute
        self.references = CachePath.normalized(references)
    }

    /// The foreign keys of a model class's `BelongsTo` relations: each relation's foreign
    /// key, in the class's wire format, pointing to the parent class's `urlRoot`.
    ///
    /// ```swift
    /// final class Book: Model {
    ///     static let author = BelongsTo<Author>("author", foreignKey: "author")
    ///     override class var urlRoot: String? { "/drf/books" }
    ///     override class var relations: [any Relation] { [author] }
    /// }
    /// ForeignKey.foreignKeys(of: Book.self)  // [/drf/books.author → /drf/authors]
    /// ```
    ///
    /// - Parameters:
    ///   - type: The model class.
    ///   - collection: Its collection path; the class's `urlRoot` by default.
    /// - Returns: One key per `BelongsTo` whose parent class has a `urlRoot`; empty when
    ///   neither `collection` nor the class's `urlRoot` is known.
    public static func foreignKeys(of type: Model.Type, in collection: String? = nil) -> [ForeignKey] {
        guard let collection = collection ?? type.urlRoot else { return [] }
        return type.relations.compactMap { relation in
            guard let belongsTo = relation as? any ParentReference, let parent = belongsTo.parentCollection else {
                return nil
            }
            return ForeignKey(
                collection: collection,
                attribute: type.wireFormat.keys.wireName(for: belongsTo.foreignKey),
                references: parent
            )
        }
    }
}

/// A relation that stores its parent's id in the owner: `BelongsTo`.
protocol ParentReference {
    var foreignKey: String { get }
    var parentCollection: String? { get }
}

extension BelongsTo: ParentReference {
    var parentCollection: String? { Parent.urlRoot }
}
