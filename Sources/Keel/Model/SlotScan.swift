/// The comparison of a `set`'s input with a model's storage, by slot: which entries of the
/// input change the model, which name keys it lacks, and whether the input is the new storage
/// as it is.
enum SlotScan {
    /// The positions in `attributes` whose values differ from the model's, the keys that
    /// `layout`, the layout of `current`, lacks included: those are also put in `added`.
    ///
    /// A key the model lacks always changes it (an absent value differs from every value,
    /// `null` included), as ``Model/changes(_:_:_:unsetting:)`` says.
    @inline(__always)
    static func changes(
        of attributes: Attributes,
        in current: Attributes,
        layout: AttributeLayout,
        added: inout PositionSet
    ) -> PositionSet {
        var changes = PositionSet()
        // `attributes` and `current` live unchanged through the scan, so their entries are
        // read in place.
        for position in 0..<attributes.count {
            let key = attributes.keyAddress(at: position)
            // An input in the model's key order (a server's record of it, most often) names
            // each key in its slot, which is told by the key's bits without a lookup.
            let slotInOrder: Int? =
                position < current.count && layout.hasKey(at: position, withSameBitsAs: key.pointee)
                ? position : nil
            guard let slot = slotInOrder ?? layout.slot(of: key.pointee) else {
                changes.insert(position)
                added.insert(position)
                continue
            }
            if current.match(ofValueAt: slot, withValueAt: position, in: attributes) == .different {
                changes.insert(position)
            }
        }
        return changes
    }

    /// Whether `attributes`, as it is, is the storage that setting it on `current` produces.
    ///
    /// It is when it names every key of `layout` (the layout of `current`), with the same bits
    /// and in slot order, each value outside `changes` has the same bits as the current one,
    /// and the keys `added` (those `layout` lacks) follow them. A create's answer that echoes
    /// the sent attributes and adds the new id is such an input.
    ///
    /// An equal value with other bits (`1.0` for `1`) does not qualify, since the model keeps the
    /// value it has.
    @inline(__always)
    static func inputIsStorage(
        _ attributes: Attributes,
        adding added: PositionSet,
        changing changes: PositionSet,
        current: Attributes,
        layout: AttributeLayout
    ) -> Bool {
        // The first `current.count` positions hold the layout's keys, so the rest, as many as
        // `added` holds, are the added ones.
        guard attributes.count == current.count + added.count else { return false }
        for position in 0..<current.count {
            guard layout.hasKey(at: position, withSameBitsAs: attributes.keyAddress(at: position).pointee) else {
                return false
            }
            if !changes.contains(position)
                && current.match(ofValueAt: position, withValueAt: position, in: attributes) != .sameBits
            {
                return false
            }
        }
        return true
    }
}
