/// A Fenwick tree over a list's slots with 1 for each slot a removal emptied: the floors'
/// removal lists find a record's index (its slot less the emptied slots before it) in
/// O(log *n*) without shifting their arrays, as Keel's `Collection` does.
///
/// ```swift
/// var emptied = EmptiedSlots(count: 4)
/// emptied.markEmptied(1)
/// emptied.count(before: 3)  // 1
/// ```
struct EmptiedSlots {
    /// The tree, one entry per slot.
    private var tree: ContiguousArray<Int>

    /// A tree of `count` slots, none emptied.
    init(count: Int) {
        tree = ContiguousArray(repeating: 0, count: count)
    }

    /// Counts `slot` as emptied.
    @inline(__always)
    mutating func markEmptied(_ slot: Int) {
        var i = slot + 1
        while i <= tree.count {
            tree[i - 1] += 1
            i += i & -i
        }
    }

    /// The number of emptied slots before `slot`.
    @inline(__always)
    func count(before slot: Int) -> Int {
        var sum = 0
        var i = slot
        while i > 0 {
            sum += tree[i - 1]
            i &= i - 1
        }
        return sum
    }
}
