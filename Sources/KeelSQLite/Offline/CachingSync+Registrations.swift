public import Keel

// A `Store` tells its backend each model class it registers (`ModelRegistrationReceiving`),
// so the cache of a store knows the JSON:API types and foreign keys of the app's classes
// without the app listing them in the configuration. What the app set there wins.
extension CachingSync: ModelRegistrationReceiving {
    /// Learns a class a `Store` registered: its JSON:API resource type's collection (where
    /// the `included` resources of the type are stored) and the foreign keys of its
    /// `BelongsTo` relations, as ``Configuration/register(_:collection:readPolicy:versionCheck:conflictPolicy:)``
    /// adds them; a type the configuration lists keeps the configuration's path.
    ///
    /// A store calls this by itself; call it for classes read without a store.
    ///
    /// ```swift
    /// cache.register(ModelRegistration(type: Comment.self, collection: "/comments", resourceType: "comments"))
    /// cache.resourceTypes["comments"]  // "/comments"
    /// ```
    ///
    /// - Parameter registration: The class, its collection path and its resource type.
    public func register(_ registration: ModelRegistration) {
        let keys = ForeignKey.foreignKeys(of: registration.type, in: registration.collection)
        let collection = CachePath.normalized(registration.collection)
        learned.withLock { learned in
            if let name = registration.resourceType { learned.resourceTypes[name] = collection }
            for key in keys where !learned.foreignKeys.contains(key) { learned.foreignKeys.append(key) }
        }
    }

    /// The collection path of each JSON:API resource type the cache knows: the
    /// configuration's (``Configuration/resourceTypes``), then those learned from a `Store`
    /// (``register(_:)``).
    ///
    /// ```swift
    /// _ = store.collection(Article.self)
    /// store.cachingSync?.resourceTypes  // ["articles": "/articles", "comments": "/comments", …]
    /// ```
    public var resourceTypes: [String: String] {
        learned.withLock { $0.resourceTypes }.merging(configuration.resourceTypes) { _, own in own }
    }

    /// The foreign keys the cache rewrites when a temporary id is replaced: the
    /// configuration's (``Configuration/foreignKeys``), then those learned from a `Store`.
    ///
    /// ```swift
    /// store.cachingSync?.foreignKeys.map(\.attribute)  // ["authorId"]
    /// ```
    public var foreignKeys: [ForeignKey] {
        let own = configuration.foreignKeys
        return own + learned.withLock { $0.foreignKeys }.filter { !own.contains($0) }
    }
}

/// What a ``CachingSync`` learned from the classes a `Store` registered.
struct LearnedClasses {
    /// The collection path of each resource type.
    var resourceTypes: [String: String] = [:]
    /// The foreign keys of the classes' `BelongsTo` relations.
    var foreignKeys: [ForeignKey] = []
}
