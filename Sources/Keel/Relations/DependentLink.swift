/// A link that embeds a model and keeps its owner's attribute in step with it (``OneLink``).
///
/// A class, so that the ``DependentLinks`` of a model hold each link in one word where an
/// existential took two (the list of an author of 100 posts, 800 bytes fewer); a
/// ``ModelExtras``, as the link of a class's only relation is its owner's extras
/// (``OneLink/asOwnerExtras()``).
class DependentLink: ModelExtras {
    /// The link's position in the ``DependentLinks`` of the model it embeds, in 32 bits that
    /// share a word with ``isMerging``: a model has fewer owners than 2³¹ (each owner's link
    /// alone takes more than 100 bytes).
    private final var storedDependentIndex: Int32 = 0
    /// Whether the link is merging into its model or putting another in place: the model's
    /// `change` it causes then is the link's own to report, not one to be told of.
    final var isMerging = false

    /// The link's position in the ``DependentLinks`` of the model it embeds.
    final var dependentIndex: Int {
        get { Int(storedDependentIndex) }
        set { storedDependentIndex = Int32(newValue) }
    }

    /// Called when the embedded model fires `change`; a link overrides it.
    func relatedModelDidChange() {}
}
