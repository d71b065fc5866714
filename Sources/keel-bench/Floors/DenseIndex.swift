/// Objects by dense integer keys: the object with key `k` at position `k - first` of an
/// array, so that a lookup is an offset and a bounds check, without hashing.
///
/// The floors' keys are dense (the workloads' ids, and client ids from one counter), so
/// this is the fastest index of them; the same scheme as ``SlotCollection``'s id index.
struct DenseIndex<Element: AnyObject> {
    /// The objects, by key minus ``first``.
    private var slots: ContiguousArray<Element?> = []
    /// The key of position 0 of ``slots``.
    private var first = 0

    /// The object with this key, or `nil`.
    @inline(__always)
    subscript(key: Int) -> Element? {
        let position = key &- first
        return slots.indices.contains(position) ? slots[position] : nil
    }

    /// Makes room for keys up to `count` past the first one.
    mutating func reserveCapacity(_ count: Int) {
        slots.reserveCapacity(count)
    }

    /// Stores `element` under `key` (a key below 0 is not indexed).
    mutating func insert(_ element: Element, at key: Int) {
        guard key >= 0 else { return }
        if slots.isEmpty {
            first = key
        } else if key < first {
            slots.insert(contentsOf: repeatElement(nil, count: first - key), at: 0)
            first = key
        }
        let position = key - first
        if position == slots.count {
            slots.append(element)
        } else {
            if position > slots.count {
                slots.append(contentsOf: repeatElement(nil, count: position + 1 - slots.count))
            }
            slots[position] = element
        }
    }

    /// Forgets the object under `key`.
    mutating func remove(at key: Int) {
        let position = key &- first
        if slots.indices.contains(position) { slots[position] = nil }
    }
}
