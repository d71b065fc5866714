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

    /// The implementations of the relations of `type`: those an identity map hands the
    /// initializer in `options`, else the class's ``Model/relations``, resolved once.
    ///
    /// A class without relations answers its empty list, which allocates nothing, and takes no
    /// lock; a map hands over the list it resolved for the class, so that its models neither
    /// build the class's list nor take the lock.
    static func implementations(of type: Model.Type, options: ChangeOptions) -> [any RelationImplementation] {
        if let handed = options.extras?.classRelations, handed.type == ObjectIdentifier(type) {
            return handed.implementations
        }
        let declared = type.relations
        return declared.isEmpty ? [] : implementations(of: type, declared)
    }
}

/// A class's relations as an ``IdentityMap`` resolved them once, handed to the initializer of
/// each model of the class it builds (``ChangeOptions/Extras/classRelations``).
final class ClassRelations {
    /// The class.
    let type: ObjectIdentifier
    /// Its relations' implementations, in order.
    let implementations: [any RelationImplementation]

    init(_ type: Model.Type, implementations: [any RelationImplementation]) {
        self.type = ObjectIdentifier(type)
        self.implementations = implementations
    }
}
