public import Keel

extension CachingSync.Configuration {
    /// Adds the JSON:API resource types an identity map knows (its
    /// `IdentityMap/resourceTypeCollections`: the types the app registered and those a
    /// `Store` registered for the classes it holds), so that the cache stores the `included`
    /// resources of those types in the same collections; a type already in
    /// ``resourceTypes`` keeps its path.
    ///
    /// A cache behind a `Store` learns these types from the store by itself, also those
    /// registered later (`ModelRegistrationReceiving`); copy them only for a cache that
    /// reads for an identity map without a store.
    ///
    /// ```swift
    /// var configuration = CachingSync.Configuration()
    /// configuration.registerResourceTypes(of: store.identityMap)
    /// ```
    ///
    /// - Parameter identityMap: The map whose registry to copy.
    public mutating func registerResourceTypes(of identityMap: IdentityMap) {
        resourceTypes.merge(identityMap.resourceTypeCollections.mapValues(CachePath.normalized)) { own, _ in own }
    }
}
