/// The model class and collection path of each JSON:API resource type an ``IdentityMap``
/// knows, so that an `included` resource of that type becomes the live instance of its
/// record whether or not a relation links to it.
///
/// A registration made by the app wins over one the map made by itself (from a class a
/// ``Store`` holds or a relation it declares); two classes registered by the app for one
/// type are an error, and the map's own registrations never replace an existing one.
struct ResourceTypeRegistry {
    /// Where the records of one type live.
    struct Entry {
        let type: Model.Type
        let collection: String
        /// Whether the app registered it, rather than the map from a class it met.
        let isExplicit: Bool
    }

    private var entries: [String: Entry] = [:]
    /// The classes whose relations were walked already.
    private var walked: Set<ObjectIdentifier> = []

    /// The entry of a resource type, if any.
    subscript(resourceType: String) -> Entry? { entries[resourceType] }

    /// The collection path of every known resource type.
    var collections: [String: String] { entries.mapValues(\.collection) }

    /// Every known type's class and collection, as registrations a backend learns.
    var registrations: [ModelRegistration] {
        entries.sorted { $0.key < $1.key }.map {
            ModelRegistration(type: $0.value.type, collection: $0.value.collection, resourceType: $0.key)
        }
    }

    /// Registers a class for a type as the app asks.
    ///
    /// - Returns: The registration, for the store's backend.
    /// - Throws: ``IdentityMapError/resourceTypeConflict(resourceType:registeredType:newType:)``
    ///   when the app registered another class for the type.
    mutating func register(
        _ resourceType: String,
        type: Model.Type,
        collection: String
    ) throws(IdentityMapError) -> ModelRegistration {
        if let entry = entries[resourceType], entry.isExplicit, entry.type != type {
            throw .resourceTypeConflict(
                resourceType: resourceType,
                registeredType: String(describing: entry.type),
                newType: String(describing: type)
            )
        }
        entries[resourceType] = Entry(type: type, collection: collection, isExplicit: true)
        return ModelRegistration(type: type, collection: collection, resourceType: resourceType)
    }

    /// Registers a JSON:API class under its own type unless the type is known, then the
    /// targets of its relations (those with a `urlRoot`), and theirs, the same way.
    ///
    /// - Returns: A registration for each class met for the first time (and for the class
    ///   itself when it gave its type a collection), with its type when the type is now its.
    mutating func registerIfUnknown(_ type: Model.Type, collection: String) -> [ModelRegistration] {
        var resourceType: String?
        if let format = type.wireFormat.jsonAPIFormat {
            let name = format.resourceType(of: type)
            if entries[name] == nil {
                entries[name] = Entry(type: type, collection: collection, isExplicit: false)
                resourceType = name
            }
        }
        guard walked.insert(ObjectIdentifier(type)).inserted else {
            return resourceType.map { [ModelRegistration(type: type, collection: collection, resourceType: $0)] } ?? []
        }
        var registrations = [ModelRegistration(type: type, collection: collection, resourceType: resourceType)]
        for case let relation as any RelationImplementation in type.relations {
            let target = relation.targetType
            guard let root = target.urlRoot else { continue }
            registrations += registerIfUnknown(target, collection: root)
        }
        return registrations
    }
}
