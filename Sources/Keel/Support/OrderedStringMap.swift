/// An insertion-ordered map from strings to values.
///
/// Small maps (a model's handful of attributes, an emitter's few event names) are searched
/// linearly, which beats hashing; past ``linearSearchLimit`` entries a hash index is kept
/// beside them.
///
/// Removing a key from a large map costs one lookup and closing the gap in the entries (a
/// memory move), not re-hashing every key: see ``KeyStamps``.
///
/// The map is one word, its entries' storage: the hash index lives in that storage, after
/// the entries (``ManagedBuffer/keyStamps``), so that a ``JSONObject``, and a model holding
/// one, carries no second reference that almost every map leaves `nil`, and the storage of
/// a small map no word for one.
struct OrderedStringMap<Value> {
    typealias Element = (key: String, value: Value)

    static var linearSearchLimit: Int { ElementStorageHeader.smallCapacity }

    private(set) var entries = ElementBuffer<Element>()

    /// The hash index, for maps past ``linearSearchLimit`` entries, kept in the entries'
    /// storage; copied before a change when shared (``ElementBuffer/uniqueKeyStamps()``).
    private var keyStamps: KeyStamps? {
        get { entries.keyStamps }
        set { entries.setKeyStamps(newValue) }
    }

    init() {}

    /// Creates a map from entries whose keys the caller guarantees are distinct.
    init(uncheckedUniqueEntries: ElementBuffer<Element>) {
        entries = uncheckedUniqueEntries
        if entries.count > Self.linearSearchLimit { rebuildPositions() }
    }

    /// Creates a map that holds `storage` as it is, without indexing it: a ``JSONObject``'s
    /// ``ShapedStorage``, which the map is never used to read or change.
    init(holding storage: ElementStorage<Element>) {
        entries = ElementBuffer(adopting: storage)
    }

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    @inline(__always)
    func index(forKey key: String) -> Int? {
        // Only storage with room past the limit has a hash index: smaller maps test a count.
        guard entries.capacity <= Self.linearSearchLimit else { return indexInLargeStorage(forKey: key) }
        return Self.linearPosition(ofKey: key, in: entries)
    }

    /// ``index(forKey:)`` in storage with room for more than ``linearSearchLimit`` entries,
    /// which may or may not have a hash index.
    @inline(never)
    private func indexInLargeStorage(forKey key: String) -> Int? {
        if let keyStamps { return keyStamps.position(ofKey: key) }
        return Self.linearPosition(ofKey: key, in: entries)
    }

    /// The position of `key` in `entries`, searched in order without copying them.
    @inline(__always)
    private static func linearPosition(ofKey key: String, in entries: ElementBuffer<Element>) -> Int? {
        entries.withUnsafeBufferPointer { buffer in StringIdentity.position(of: key, in: buffer) }
    }

    /// The hash index, copied first if another map shares it; the map must have one.
    private mutating func uniqueKeyStamps() -> KeyStamps {
        entries.uniqueKeyStamps()
    }

    subscript(key: String) -> Value? {
        guard let position = index(forKey: key) else { return nil }
        return value(at: position)
    }

    /// The value at `position`, copied out of the storage.
    @inline(__always)
    func value(at position: Int) -> Value {
        // Through the lent storage: the map holds it, and a copy of the reference would be
        // retained around the read where the lookup before it is inlined.
        entries.unretainedStorage.unsafelyUnwrapped._withUnsafeGuaranteedRef { storage in
            UnsafeBufferPointer(start: storage.elements, count: storage.elementCount)[position].value
        }
    }

    /// The address of the key at `position`, which must be a valid position.
    ///
    /// Valid until the entries next change. A tuple's first element lies at its start.
    @inline(__always)
    func keyAddress(at position: Int) -> UnsafePointer<String> {
        UnsafeRawPointer(entries.address(of: position)).assumingMemoryBound(to: String.self)
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
        if entries.hasKeyStamps {
            uniqueKeyStamps().append(key)
        } else if entries.count > Self.linearSearchLimit {
            rebuildPositions()
        }
        return nil
    }

    /// Whether no other map shares the entries.
    mutating func hasUniqueStorage() -> Bool {
        entries.hasUniqueStorage()
    }

    /// Whether both maps share their entries (and so their hash index).
    func isIdentical(to other: OrderedStringMap) -> Bool {
        entries.storage === other.entries.storage
    }

    /// Adds `key` with `value` at the end; the caller guarantees that the map does not have
    /// `key`.
    mutating func appendUnchecked(_ key: String, _ value: Value) {
        entries.append((key, value))
        if entries.hasKeyStamps {
            uniqueKeyStamps().append(key)
        } else if entries.count > Self.linearSearchLimit {
            rebuildPositions()
        }
    }

    /// Adds the entries of `other` or replaces the values of keys already present, sizing
    /// the storage exactly.
    ///
    /// `other`'s keys are distinct, so each is searched for among the original entries only,
    /// once.
    mutating func merge(_ other: OrderedStringMap) {
        guard !entries.hasKeyStamps, other.count <= Self.linearSearchLimit else {
            for entry in other.entries { updateValue(entry.value, forKey: entry.key) }
            return
        }
        let originalCount = entries.count
        other.entries.withUnsafeBufferPointer { others in
            withUnsafeTemporaryAllocation(of: Int?.self, capacity: others.count) { matches in
                var newKeys = 0
                for offset in others.indices {
                    let match = Self.linearPosition(ofKey: others[offset].key, in: entries)
                    matches.initializeElement(at: offset, to: match)
                    if match == nil { newKeys += 1 }
                }
                entries.reserveCapacity(originalCount + newKeys)
                for offset in others.indices {
                    if let match = matches[offset] {
                        entries[match].value = others[offset].value
                    } else {
                        entries.append(others[offset])
                    }
                }
            }
        }
        if entries.count > Self.linearSearchLimit { rebuildPositions() }
    }

    /// `base` with the entries of `overrides` added or replaced, as `base.merge(overrides)`
    /// would leave it, in storage of the result's size; both maps are left empty.
    ///
    /// The entries of either map whose storage nothing else shares are moved into the result
    /// rather than copied, so that freeing that storage releases nothing: building a model
    /// merges the class's fresh defaults with the attributes it was given this way.
    static func merging(emptying base: inout OrderedStringMap, _ overrides: inout OrderedStringMap) -> OrderedStringMap
    {
        let baseCount = base.count
        let overrideCount = overrides.count
        guard baseCount > 0, overrideCount > 0, baseCount <= Self.linearSearchLimit,
            overrideCount <= Self.linearSearchLimit
        else {
            var result = base
            result.merge(overrides)
            base = OrderedStringMap()
            overrides = OrderedStringMap()
            return result
        }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: overrideCount) { matches in
            // The position of each override among the base's entries, or -1 for a new key.
            var newKeys = 0
            base.entries.withUnsafeBufferPointer { baseEntries in
                overrides.entries.withUnsafeBufferPointer { overrideEntries in
                    for offset in overrideEntries.indices {
                        let match = StringIdentity.position(of: overrideEntries[offset].key, in: baseEntries) ?? -1
                        matches.initializeElement(at: offset, to: match)
                        if match < 0 { newKeys += 1 }
                    }
                }
            }
            let storage = ElementStorage<Element>.make(capacity: baseCount + newKeys)
            let target = storage.elements
            base.entries.drain { position, entry in (target + position).initialize(to: entry) }
            var count = baseCount
            overrides.entries.drain { position, entry in
                let match = matches[position]
                if match >= 0 {
                    target[match].value = entry.value
                } else {
                    (target + count).initialize(to: entry)
                    count += 1
                }
            }
            storage.elementCount = count
            return OrderedStringMap(uncheckedUniqueEntries: ElementBuffer(adopting: storage))
        }
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
            keyStamps = nil
        }
    }

    /// Removes `key` and its value, keeping the order of the rest.
    ///
    /// - Complexity: For a large map, one hash lookup, a binary search and closing the gap
    ///   in the entries and the stamps (a memory move); amortised, rebuilding the hash index
    ///   adds O(1).
    @discardableResult
    mutating func removeValue(forKey key: String) -> Value? {
        guard let position = index(forKey: key) else { return nil }
        let old = entries.remove(at: position).value
        guard entries.hasKeyStamps else { return old }
        if entries.count <= Self.linearSearchLimit {
            keyStamps = nil
        } else if !uniqueKeyStamps().remove(at: position) {
            rebuildPositions()
        }
        return old
    }

    mutating func removeAll(keepingCapacity: Bool = false) {
        entries.removeAll(keepingCapacity: keepingCapacity)
        // Setting the index makes the storage unique first: skipped when there is none.
        if entries.hasKeyStamps { keyStamps = nil }
    }

    /// The address of the map's only entry when its key has the bits of `key` (so is `key`)
    /// and nothing else shares the storage; valid until the map next changes.
    @inline(__always)
    mutating func loneEntry(ifKeyIs key: String) -> UnsafeMutablePointer<Element>? {
        guard let entry = entries.addressOfLoneElement(), StringIdentity.haveSameBits(entry.pointee.key, key) else {
            return nil
        }
        return entry
    }

    /// The storage of the entries without a reference count, or `nil` when the map is empty:
    /// valid while this map keeps it, for ``assign(copying:except:)``.
    @inline(__always)
    var unretainedEntries: Unmanaged<ElementStorage<Element>>? { entries.unretainedStorage }

    /// Makes the entries those of `source` (another map's, which keeps them for the call) but
    /// the one at `position`, reusing this map's storage when nothing else shares it
    /// (``ElementBuffer/assign(copying:except:)``), and gives that entry's address for the
    /// caller to set: the value it will replace is not copied first.
    ///
    /// - Returns: The entry at `position`, whose key the caller must set from `source`'s only
    ///   when it is not initialized or does not have its bits; `source`'s entry there; and
    ///   whether the target entry is initialized.
    @inline(__always)
    mutating func assign(
        copying source: Unmanaged<ElementStorage<Element>>,
        except position: Int
    ) -> (target: UnsafeMutablePointer<Element>, source: UnsafePointer<Element>, isInitialized: Bool) {
        entries.assign(copying: source, except: position)
    }

    private mutating func rebuildPositions() {
        var map = [String: Int](minimumCapacity: entries.count)
        for (position, entry) in entries.enumerated() { map[entry.key] = position }
        keyStamps = KeyStamps(map)
    }
}

/// The hash index of a large ``OrderedStringMap``: each key's *stamp*.
///
/// A stamp is the key's position when the index was built, or the next number for a key
/// added later. Stamps increase along the entries, and equal the positions until a key is
/// removed. Removing a key then records the stamps of the remaining entries in order (once)
/// and drops its own from that list, instead of re-hashing every key after it; a lookup
/// finds the position of its stamp by binary search, and a removed key's stamp is not in
/// the list. The hash table itself is left alone, so a map that shares it with a copy (a
/// model's previous attributes) does not copy it. Once as many keys have been removed as
/// remain, the map rebuilds the index with positions as stamps, which keeps that amortised
/// O(1) per removal and bounds the removed keys the table still holds.
///
/// `@unchecked Sendable`: a map changes its index only when no other map shares it.
final class KeyStamps: @unchecked Sendable {
    /// The stamp of each key; after removals, also of some removed keys.
    private var stamps: [String: Int]
    /// The stamp of each entry, after a removal; `nil` while every stamp is its position.
    private var order: ContiguousArray<Int>?
    /// The stamp for the next key: stamps are never reused, so a removed key's stamp never
    /// names another key.
    private var nextStamp: Int

    /// Creates an index whose stamps are the positions.
    init(_ positions: [String: Int]) {
        stamps = positions
        nextStamp = positions.count
    }

    /// A copy that can change independently.
    func copy() -> KeyStamps {
        let copy = KeyStamps(stamps)
        copy.order = order
        copy.nextStamp = nextStamp
        return copy
    }

    /// The position of `key`, or `nil` when the map does not have it.
    func position(ofKey key: String) -> Int? {
        guard let stamp = stamps[key] else { return nil }
        guard let order else { return stamp }
        // Stamps are distinct and at least their positions, so the position is at most the
        // stamp and at least the stamp minus the number of gaps.
        let gaps = (order.last ?? 0) - (order.count - 1)
        var low = Swift.max(0, stamp - gaps)
        var high = Swift.min(stamp, order.count - 1)
        guard low <= high else { return nil }
        while low < high {
            let middle = low + (high - low) / 2
            if order[middle] < stamp { low = middle + 1 } else { high = middle }
        }
        return order[low] == stamp ? low : nil
    }

    /// Records a new key, after every other entry.
    func append(_ key: String) {
        // Without removals, the next stamp is the position.
        let stamp = nextStamp
        nextStamp += 1
        order?.append(stamp)
        stamps[key] = stamp
    }

    /// Forgets the key at `position`; its stamp stays in the table, unused.
    ///
    /// - Returns: `false` when as many keys have been removed as remain: the map should
    ///   rebuild its index.
    func remove(at position: Int) -> Bool {
        if order == nil {
            var numbers = ContiguousArray(0..<stamps.count)
            numbers.remove(at: position)
            order = numbers
        } else {
            order?.remove(at: position)
        }
        let remaining = order?.count ?? 0
        return nextStamp - remaining <= remaining
    }
}

extension OrderedStringMap: Sendable where Value: Sendable {}
