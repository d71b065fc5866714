/// A set of positions below 64 in one word: the entries of a `set`'s input that change the
/// model, found once and then visited by each step of the `set` (the change bookkeeping,
/// Observation, the events) without comparing the values again.
struct PositionSet: Sequence, IteratorProtocol {
    /// How many positions the set can hold: 0 to `capacity - 1`.
    static let capacity = UInt64.bitWidth

    private var bits: UInt64 = 0

    /// Whether the set is empty.
    var isEmpty: Bool { bits == 0 }

    /// How many positions the set holds.
    var count: Int { bits.nonzeroBitCount }

    /// Whether the set holds `position`, which must be below ``capacity``.
    func contains(_ position: Int) -> Bool {
        bits & (1 << UInt64(truncatingIfNeeded: position)) != 0
    }

    /// Adds `position`, which must be below ``capacity``.
    mutating func insert(_ position: Int) {
        bits |= 1 << UInt64(truncatingIfNeeded: position)
    }

    /// Removes and returns the lowest position, so iteration goes in ascending order.
    mutating func next() -> Int? {
        guard bits != 0 else { return nil }
        let position = bits.trailingZeroBitCount
        bits &= bits &- 1
        return position
    }
}
