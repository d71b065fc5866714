/// What the models an ``IdentityMap`` built hold to keep it alive: one small object per map,
/// while any of them lives, which builds their related models through the map
/// (``RelatedModelBuilder``).
///
/// A map is held weakly by its handlers, so it has a side table, and each retain and release
/// of the map itself takes the runtime's slow path (75 and 95 instructions where another
/// object's take 22 and 18). The anchor has no side table: each model the map builds retains
/// the anchor, and the anchor alone retains the map. The map refers to its live anchor without
/// a reference count (``IdentityMap/anchor``), and the anchor's deinit tells it, so that the
/// next model it builds makes a new one.
final class IdentityMapAnchor: RelatedModelBuilder {
    /// An anchor that keeps `map` alive and builds through its factory.
    init(_ map: IdentityMap) {
        super.init(factory: map.buildHooks.relatedModelFactory, map: map)
    }

    deinit {
        map?.liveAnchor = nil
    }
}

extension IdentityMap {
    /// The anchor a model the map builds holds it through: the live one, or a new one.
    ///
    /// Returned without a reference count of the map's own: the caller stores it in the model.
    var anchor: IdentityMapAnchor {
        if let liveAnchor { return liveAnchor.takeUnretainedValue() }
        let made = IdentityMapAnchor(self)
        liveAnchor = Unmanaged.passUnretained(made)
        return made
    }
}
