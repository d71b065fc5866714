/// An insertion-ordered map from strings to values.
///
/// Small maps (a model's handful of attributes, an emitter's few event names) are searched
/// linearly, which beats hashing; past ``linearSearchLimit`` entries a hash index is kept
/// beside them.
///
/// The hash index maps each key to a *stamp*: its position when the index was built, or the
/// next number for a key added later. Stamps increase along the entries, and equal the
/// positions until a key is removed. Removing a key then records the stamps of the
/// remaining entries (once) and drops its own, so a removal costs one lookup and closing
/// the gap in two arrays instead of re-hashing every key; a lookup finds the position of
/// its stamp by binary search. When as many keys have been removed as remain, the index is
/// rebuilt with positions as stamps, which keeps that amortised O(1) per removal.
struct OrderedStringMap<Value> {
    typealias Element = (key: String, value: Value)

    static var linearSearchLimit: Int { 12 }

    private(set) var entries: ContiguousArray<Element> = []
    /// Each key's stamp, for maps past ``linearSearchLimit`` entries.
    private var positions: [String: Int]?
    /// The stamp of each entry, after a removal; `nil` while every stamp is its position.
    private var stamps: ContiguousArray<Int>?

    init() {}

    /// Creates a map from entries whose keys the caller guarantees are distinct.
    init(uncheckedUniqueEntries: ContiguousArray<Element>) {
        entries = uncheckedUniqueEntries
        if entries.count > Self.linearSearchLimit { rebuildPositions() }
    }

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    func index(forKey key: String) -> Int? {
        guard let positions else { return entries.firstIndex { $0.key == key } }
        guard let stamp = positions[key] else { return nil }
        guard let stamps else { return stamp }
        return Self.position(of: stamp, in: stamps)
    }

    /// The position of `stamp` in the increasing `stamps`, which contain it.
    private static func position(of stamp: Int, in stamps: ContiguousArray<Int>) -> Int {
        // Stamps are distinct and at least their positions, so the position is at most the
        // stamp and at least the stamp minus the number of gaps.
        let gaps = (stamps.last ?? 0) - (stamps.count - 1)
        var low = Swift.max(0, stamp - gaps)
        var high = Swift.min(stamp, stamps.count - 1)
        while low < high {
            let middle = low + (high - low) / 2
            if stamps[middle] < stamp { low = middle + 1 } else { high = middle }
        }
        return low
    }

    subscript(key: String) -> Value? {
        guard let position = index(forKey: key) else { return nil }
        return entries[position].value
    }

    mutating func reserveCapacity(_ capacity: Int) {
        entries.reserveCapacity(capacity)
    }

    @discardableResult
    mutating func updateValue(_ value: Value, forKey key: String) -> Value? {
        if let position = index(forKey: key) {
            let old = entries[position].value
            entries[position].value = value
            return old
        }
        entries.append((key, value))
        if positions != nil {
            if stamps != nil {
                let stamp = (stamps?.last ?? -1) + 1
                stamps?.append(stamp)
                positions?[key] = stamp
            } else {
                positions?[key] = entries.count - 1
            }
        } else if entries.count > Self.linearSearchLimit {
            rebuildPositions()
        }
        return nil
    }

    /// Adds the entries of `other` or replaces the values of keys already present, sizing
    /// the storage exactly.
    ///
    /// `other`'s keys are distinct, so each is searched for among the original entries only,
    /// once.
    mutating func merge(_ other: OrderedStringMap) {
        guard positions == nil, other.count <= Self.linearSearchLimit else {
            for entry in other.entries { updateValue(entry.value, forKey: entry.key) }
            return
        }
        let originalCount = entries.count
        withUnsafeTemporaryAllocation(of: Int?.self, capacity: other.count) { matches in
            var newKeys = 0
            for (offset, entry) in other.entries.enumerated() {
                let match = entries.firstIndex { $0.key == entry.key }
                matches.initializeElement(at: offset, to: match)
                if match == nil { newKeys += 1 }
            }
            entries.reserveCapacity(originalCount + newKeys)
            for (offset, entry) in other.entries.enumerated() {
                if let match = matches[offset] {
                    entries[match].value = entry.value
                } else {
                    entries.append(entry)
                }
            }
        }
        if entries.count > Self.linearSearchLimit { rebuildPositions() }
    }

    /// Changes the value at `position` in place.
    mutating func modifyValue<Result>(at position: Int, _ body: (inout Value) -> Result) -> Result {
        body(&entries[position].value)
    }

    /// Removes the entries that match, keeping the order of the rest.
    mutating func removeAll(where shouldRemove: (Element) -> Bool) {
        let count = entries.count
        entries.removeAll(where: shouldRemove)
        guard entries.count != count else { return }
        if entries.count > Self.linearSearchLimit {
            rebuildPositions()
        } else {
            positions = nil
            stamps = nil
        }
    }

    /// Removes `key` and its value, keeping the order of the rest.
    ///
    /// - Complexity: For a large map, one hash lookup, a binary search and closing the gap
    ///   in the entries and the stamps (a memory move); amortised, the rebuilding of the
    ///   hash index adds O(1).
    @discardableResult
    mutating func removeValue(forKey key: String) -> Value? {
        guard let position = index(forKey: key) else { return nil }
        let old = entries.remove(at: position).value
        guard positions != nil else { return old }
        if entries.count <= Self.linearSearchLimit {
            positions = nil
            stamps = nil
            return old
        }
        positions?.removeValue(forKey: key)
        if stamps == nil {
            var numbers = ContiguousArray(0..<(entries.count + 1))
            numbers.remove(at: position)
            stamps = numbers
        } else {
            stamps?.remove(at: position)
        }
        // Rebuild once as many keys have gone as remain, so stamps stay close to positions.
        let gaps = (stamps?.last ?? 0) - (entries.count - 1)
        if gaps > entries.count { rebuildPositions() }
        return old
    }

    mutating func removeAll(keepingCapacity: Bool = false) {
        stamps = nil
        if keepingCapacity && entries.count <= Self.linearSearchLimit {
            // `removeAll(keepingCapacity:)` goes through the general `replaceSubrange`,
            // several times the cost of emptying a few entries one by one.
            while !entries.isEmpty { entries.removeLast() }
        } else {
            entries.removeAll(keepingCapacity: keepingCapacity)
        }
        positions = nil
    }

    private mutating func rebuildPositions() {
        var map = [String: Int](minimumCapacity: entries.count)
        for (position, entry) in entries.enumerated() { map[entry.key] = position }
        positions = map
        stamps = nil
    }
}

extension OrderedStringMap: Sendable where Value: Sendable {}
