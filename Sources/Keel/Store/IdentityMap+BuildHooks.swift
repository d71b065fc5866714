/// The hooks an ``IdentityMap`` builds the models of classes with relations with: the
/// factory of their related models (``ChangeOptions/relatedModelFactory``) and the call that
/// registers a model before it builds them (``ChangeOptions/willBuildRelated``).
///
/// Made once per map, with the options they were last added to: making two closures and
/// copying the options' storage for every model cost a tenth of building it. The closures
/// hold the map without a reference count (the map holds them, and tells them when it goes);
/// each model built with them keeps the map alive itself (its ``IdentityMapAnchor``), as the
/// closures made per model did.
final class BuildHooks {
    /// Builds a related model through the map, while it lives.
    let relatedModelFactory: RelatedModelFactory
    /// ``relatedModelFactory`` as the options carry it, one object for every model built.
    private let relatedModelBuilder: RelatedModelBuilder
    private let willBuildRelated: (Model, Attributes) -> Void
    /// The map, until its deinit.
    private let reference: MapReference
    // The options last given to ``hooked(_:relations:)`` for each of the two classes it hooked
    // last (the latest first), and what it returned: kept, so that their storage is not freed
    // and reused by other options while compared with. Fields of their own, compared where
    // they lie: a `RecentPair` of them copied both options out, retaining each, on every model.
    @exclusivity(unchecked) private var latestType: ObjectIdentifier?
    @exclusivity(unchecked) private var latestGiven = ChangeOptions()
    @exclusivity(unchecked) private var latestHooked = ChangeOptions()
    @exclusivity(unchecked) private var earlierType: ObjectIdentifier?
    @exclusivity(unchecked) private var earlierGiven = ChangeOptions()
    @exclusivity(unchecked) private var earlierHooked = ChangeOptions()

    init(map: IdentityMap) {
        let reference = MapReference(map)
        self.reference = reference
        relatedModelFactory = { type, resource, attributes, options in
            // Retained for the call: a factory may be called from anywhere, by any holder.
            guard let map = reference.map?.takeUnretainedValue() else { return type.init(attributes, options: options) }
            return map.anyModel(type, collection: resource, attributes: attributes, options: options)
        }
        relatedModelBuilder = RelatedModelBuilder(factory: relatedModelFactory)
        willBuildRelated = { model, attributes in
            // Unretained: a model's initializer calls it while the map builds that model
            // (``IdentityMap/findOrInsert(_:collection:attributes:options:)``, which the map's
            // caller keeps it alive through); at any other time the map returns at once.
            reference.map?._withUnsafeGuaranteedRef { $0.willBuildRelated(model, attributes: attributes) }
        }
    }

    /// Tells the closures that the map is going: from then on they build plain models and
    /// register nothing.
    func mapWillGo() {
        reference.map = nil
    }

    /// `options` with the hooks, for building a model of the class of `relations`, which
    /// the model takes from them instead of reading its class's list.
    func hooked(_ options: ChangeOptions, relations: ClassRelations) -> ChangeOptions {
        let type = relations.type
        if latestType == type && latestGiven.isCopy(of: options) { return latestHooked }
        if earlierType == type && earlierGiven.isCopy(of: options) {
            swap(&latestType, &earlierType)
            swap(&latestGiven, &earlierGiven)
            swap(&latestHooked, &earlierHooked)
            return latestHooked
        }
        var hooked = options
        hooked.relatedModelBuilder = relatedModelBuilder
        hooked.willBuildRelated = willBuildRelated
        hooked.mutableExtras().classRelations = relations
        earlierType = latestType
        earlierGiven = latestGiven
        earlierHooked = latestHooked
        latestType = type
        latestGiven = options
        latestHooked = hooked
        return hooked
    }
}

/// The map, without a reference count, until its deinit clears it.
///
/// A `weak` reference to the map cost each build a weak load and a release on the runtime's
/// slow path (the map has a side table: its handlers hold it weakly), about 140 instructions.
private final class MapReference {
    @exclusivity(unchecked) var map: Unmanaged<IdentityMap>?

    init(_ map: IdentityMap) {
        self.map = Unmanaged.passUnretained(map)
    }
}

extension IdentityMap {
    /// `options` with the map's build hooks, for a model of the class of `relations`
    /// (``BuildHooks/hooked(_:relations:)``); the hooks are made on first use.
    func hooked(_ options: ChangeOptions, relations: ClassRelations) -> ChangeOptions {
        // Borrowed: the map holds the hooks until its deinit, and this call does not end it.
        unretainedBuildHooks._withUnsafeGuaranteedRef { $0.hooked(options, relations: relations) }
    }

    /// The map's build hooks, made on first use.
    var buildHooks: BuildHooks { unretainedBuildHooks.takeUnretainedValue() }

    /// The map's build hooks, made on first use, without a reference count of the caller's.
    private var unretainedBuildHooks: Unmanaged<BuildHooks> {
        if let madeBuildHooks { return madeBuildHooks }
        let hooks = Unmanaged.passRetained(BuildHooks(map: self))
        madeBuildHooks = hooks
        return hooks
    }

    /// A related model of a model the map built, as the map's factory builds it: the one
    /// instance for the record under `collection`, updated, or a new one.
    ///
    /// Such a model keeps the map (its ``IdentityMapAnchor``), whose factory is the
    /// only one it was given, so its relations ask the map directly, without the factory's
    /// call through a closure and its load of the map.
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
