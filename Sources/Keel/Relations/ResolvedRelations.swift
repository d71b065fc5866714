/// Each model class's relations as their implementations, resolved once per class: casting
/// every relation to ``RelationImplementation`` for every model built cost more than making
/// its links.
///
/// A class's ``Model/relations`` is read once here, for its first model with relations; Keel
/// expects a class to declare the same relations throughout.
enum ResolvedRelations {
    private static let byClass = Lock<[ObjectIdentifier: [any RelationImplementation]]>([:])

    /// The implementations of `relations`, the relations of `type`, in order.
    static func implementations(of type: Model.Type, _ relations: [any Relation]) -> [any RelationImplementation] {
        let identifier = ObjectIdentifier(type)
        if let known = byClass.withLock({ $0[identifier] }) { return known }
        let resolved = relations.compactMap { $0 as? any RelationImplementation }
        byClass.withLock { $0[identifier] = resolved }
        return resolved
    }
}
