/// The comparison of a `set`'s input with a model's storage, by slot: which entries of the
/// input change the model, and whether the input is the new storage as it is.
enum SlotScan {
    /// The positions in `attributes` whose values differ from the model's, or `nil` when
    /// `layout`, the layout of `current`, lacks one of the input's keys.
    @inline(__always)
    static func changes(of attributes: Attributes, in current: Attributes, layout: AttributeLayout) -> PositionSet? {
        var changes = PositionSet()
        // `attributes` and `current` live unchanged through the scan, so their entries are
        // read in place.
        for position in 0..<attributes.count {
            guard let slot = layout.slot(of: attributes.entryAddress(at: position).pointee.key) else { return nil }
            if current.match(ofValueAt: slot, withValueAt: position, in: attributes) == .different {
                changes.insert(position)
            }
        }
        return changes
    }

    /// Whether `attributes`, as it is, is the storage that setting it on `current` produces: it
    /// names every key of `layout` (the layout of `current`), with the same bits and in slot order,
    /// and each value outside `changes` has the same bits as the current one.
    ///
    /// An equal value with other bits (`1.0` for `1`) does not qualify, since the model keeps the
    /// value it has.
    @inline(__always)
    static func inputIsStorage(
        _ attributes: Attributes,
        changing changes: PositionSet,
        current: Attributes,
        layout: AttributeLayout
    ) -> Bool {
        guard attributes.count == current.count else { return false }
        for position in 0..<attributes.count {
            guard layout.hasKey(at: position, withSameBitsAs: attributes.entryAddress(at: position).pointee.key) else {
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
