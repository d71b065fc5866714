/// Positions by dense integer keys: the position of key `k` at `k - first` of an array, so
/// that a lookup is an offset and a bounds check, without hashing.
///
/// The counterpart of ``DenseIndex`` for a list whose records sit at positions of their own
/// (``NamedRemovalList``'s slots): its id and client-id indexes store the slot, so finding a
/// record by either is one lookup, and the index holds no reference to count.
struct DensePositions {
    /// The positions, by key minus ``first``; -1 where a key has none.
    private var positions: ContiguousArray<Int> = []
    /// The key of index 0 of ``positions``.
    private var first = 0

    /// The position stored under this key, or `nil`.
    @inline(__always)
    subscript(key: Int) -> Int? {
        let index = key &- first
        guard positions.indices.contains(index) else { return nil }
        let position = positions[index]
        return position >= 0 ? position : nil
    }

    /// Stores `position` under `key` (a key below 0 is not indexed).
    mutating func insert(_ position: Int, at key: Int) {
        guard key >= 0 else { return }
        if positions.isEmpty {
            first = key
        } else if key < first {
            positions.insert(contentsOf: repeatElement(-1, count: first - key), at: 0)
            first = key
        }
        let index = key - first
        if index >= positions.count {
            positions.append(contentsOf: repeatElement(-1, count: index + 1 - positions.count))
        }
        positions[index] = position
    }

    /// Forgets the position under `key`.
    @inline(__always)
    mutating func remove(at key: Int) {
        let index = key &- first
        if positions.indices.contains(index) { positions[index] = -1 }
    }
}
