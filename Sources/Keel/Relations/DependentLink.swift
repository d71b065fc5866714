/// A link that embeds a model and keeps its owner's attribute in step with it (``OneLink``).
///
/// A class, so that the ``DependentLinks`` of a model hold each link in one word where an
/// existential took two (the list of an author of 100 posts, 800 bytes fewer); a
/// ``ModelExtras``, as the link of a class's only relation is its owner's extras
/// (``OneLink/asOwnerExtras()``).
class DependentLink: ModelExtras {
    // The link's two fields are its extras' (``ModelExtras/linkIsMerging``,
    // ``ModelExtras/linkDependentIndex``), in padding there that held nothing.

    /// The link's position in the ``DependentLinks`` of the model it embeds: a model has fewer
    /// owners than 2³¹ (each owner's link alone takes more than 100 bytes).
    final var dependentIndex: Int {
        get { Int(linkDependentIndex) }
        set { linkDependentIndex = Int32(newValue) }
    }
    /// Whether the link is merging into its model or putting another in place: the model's
    /// `change` it causes then is the link's own to report, not one to be told of.
    final var isMerging: Bool {
        get { linkIsMerging }
        set { linkIsMerging = newValue }
    }

    /// Called when the embedded model fires `change`; a link overrides it.
    func relatedModelDidChange() {}
}
