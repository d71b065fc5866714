/// What builds a model's related models: the factory it was created with
/// (``ChangeOptions/relatedModelFactory``) and, for a model an ``IdentityMap`` built, that map.
///
/// A model's extras hold one reference to it (``ModelExtras/relatedModelBuilder``) where the
/// factory and the map's anchor took three words of every model's extras, a post's link to
/// its author among them. Options carry the factory in one, shared by every model built with
/// them; a model a map built then holds the map's anchor instead (``IdentityMapAnchor``),
/// which carries the map's factory too.
class RelatedModelBuilder {
    /// Builds the related models.
    final let factory: RelatedModelFactory
    /// The identity map whose factory ``factory`` is, kept alive: set on its anchor alone.
    final let map: IdentityMap?

    /// A builder through `factory`, which `map` (when given, kept alive) is the source of.
    init(factory: @escaping RelatedModelFactory, map: IdentityMap? = nil) {
        self.factory = factory
        self.map = map
    }
}
