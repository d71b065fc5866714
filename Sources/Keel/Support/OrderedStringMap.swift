/// An insertion-ordered map from strings to values.
///
/// Small maps (a model's handful of attributes, an emitter's few event names) are searched
/// linearly, which beats hashing; past ``linearSearchLimit`` entries a hash index is kept
/// beside them.
struct OrderedStringMap<Value> {
    typealias Element = (key: String, value: Value)

    static var linearSearchLimit: Int { 12 }

    private(set) var entries: ContiguousArray<Element> = []
    private var positions: [String: Int]?

    init() {}

    /// Creates a map from entries whose keys the caller guarantees are distinct.
    init(uncheckedUniqueEntries: ContiguousArray<Element>) {
        entries = uncheckedUniqueEntries
        if entries.count > Self.linearSearchLimit { rebuildPositions() }
    }

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    func index(forKey key: String) -> Int? {
        if let positions { return positions[key] }
        return entries.firstIndex { $0.key == key }
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
            positions?[key] = entries.count - 1
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
        }
    }

    @discardableResult
    mutating func removeValue(forKey key: String) -> Value? {
        guard let position = index(forKey: key) else { return nil }
        let old = entries.remove(at: position).value
        if positions != nil {
            if entries.count > Self.linearSearchLimit {
                rebuildPositions()
            } else {
                positions = nil
            }
        }
        return old
    }

    mutating func removeAll(keepingCapacity: Bool = false) {
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
    }
}

extension OrderedStringMap: Sendable where Value: Sendable {}
