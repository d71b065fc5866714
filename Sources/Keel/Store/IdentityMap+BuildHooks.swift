/// The hooks an ``IdentityMap`` builds the models of classes with relations with: the
/// factory of their related models (``ChangeOptions/relatedModelFactory``) and the call that
/// registers a model before it builds them (``ChangeOptions/willBuildRelated``).
///
/// Made once per map, with the options they were last added to: making two closures and
/// copying the options' storage for every model cost a tenth of building it. The closures
/// hold the map weakly (the map holds them); each model built with them keeps the map alive
/// itself (``ModelExtras/relatedModelSource``), as the closures made per model did.
final class BuildHooks {
    private let relatedModelFactory: RelatedModelFactory
    private let willBuildRelated: (Model, Attributes) -> Void
    /// The options last given to ``hooked(_:relations:)`` for each of the two classes it
    /// hooked last, and what it returned: kept, so that their storage is not freed and reused
    /// by other options while compared with.
    private var recent = RecentPair<ObjectIdentifier, (given: ChangeOptions, hooked: ChangeOptions)>()

    init(map: IdentityMap) {
        let reference = WeakMapReference(map)
        relatedModelFactory = { type, resource, attributes, options in
            guard let map = reference.map else { return type.init(attributes, options: options) }
            return map.anyModel(type, collection: resource, attributes: attributes, options: options)
        }
        willBuildRelated = { model, attributes in
            reference.map?.willBuildRelated(model, attributes: attributes)
        }
    }

    /// `options` with the hooks, for building a model of the class of `relations`, which
    /// the model takes from them instead of reading its class's list.
    func hooked(_ options: ChangeOptions, relations: ClassRelations) -> ChangeOptions {
        if let last = recent.value(for: relations.type), last.given.isCopy(of: options) { return last.hooked }
        var hooked = options
        hooked.relatedModelFactory = relatedModelFactory
        hooked.willBuildRelated = willBuildRelated
        hooked.mutableExtras().classRelations = relations
        recent.remember((options, hooked), for: relations.type)
        return hooked
    }
}

/// The map, held weakly by a constant: a closure's own `weak` capture is a variable, and each
/// call's read of it was checked for exclusive access at run time.
private final class WeakMapReference {
    weak let map: IdentityMap?

    init(_ map: IdentityMap) {
        self.map = map
    }
}

extension IdentityMap {
    /// A related model of a model the map built, as the map's factory builds it: the one
    /// instance for the record under `collection`, updated, or a new one.
    ///
    /// Such a model keeps the map (``ModelExtras/relatedModelSource``), whose factory is the
    /// only one it was given, so its relations ask the map directly, without the factory's
    /// call through a closure and its weak load of the map.
    func makeRelated<Target: Model>(
        _ type: Target.Type,
        collection: String,
        _ attributes: Attributes,
        options: ChangeOptions
    ) -> Target {
        anyModel(Target.self, collection: collection, attributes: attributes, options: options) as? Target
            ?? Target(attributes, options: options)
    }
}
