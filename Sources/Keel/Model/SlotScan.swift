/// What a `set`'s input changes in a model's storage, found by slot: the positions of the
/// input whose values differ, and whether the input can be the new storage itself.
struct SlotScan {
    /// The positions in the input whose values differ from the model's.
    private(set) var changes = PositionSet()
    /// Whether the input, as it is, is the storage the `set` would produce: it names every
    /// key of the layout, with the same bits and in slot order, and each of its values
    /// either changes or has the same bits as the current one. An equal value with other
    /// bits (`1.0` for `1`) is not taken, since the model keeps the value it has.
    private(set) var adoptsInput: Bool

    /// Scans `attributes` against `current`, whose keys are `layout`'s; `nil` when the
    /// layout lacks one of the input's keys.
    @inline(__always)
    init?(_ attributes: Attributes, current: Attributes, layout: AttributeLayout) {
        adoptsInput = attributes.count == current.count
        // `attributes` and `current` live unchanged through the scan, so their entries are
        // read in place.
        for position in 0..<attributes.count {
            let key = attributes.entryAddress(at: position)
            guard let slot = layout.slot(of: key.pointee.key) else { return nil }
            if adoptsInput && (slot != position || !layout.hasKey(at: slot, withSameBitsAs: key.pointee.key)) {
                adoptsInput = false
            }
            switch current.match(ofValueAt: slot, withValueAt: position, in: attributes) {
            case .sameBits: continue
            case .equal: adoptsInput = false
            case .different: changes.insert(position)
            }
        }
    }
}
