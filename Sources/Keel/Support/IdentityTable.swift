/// A table from object identities to integers: which models a `set` or `remove` call named
/// and where each removed model was, and the slot of each model of a collection that
/// models leave from the middle (``ModelSlots``).
///
/// Open addressing with linear probing over the objects' addresses, hashed by one
/// multiplication: `Set<ObjectIdentifier>` and `[ObjectIdentifier: Int]` hash each identity
/// with the standard library's seeded SipHash, about 150 instructions per insertion, lookup
/// or removal, several times per model of a large `set`. An address needs no such hashing:
/// it is unique while its object lives, and the product spreads it well. The table does not
/// hold its objects: whoever adds one keeps it alive until it is removed or the table is
/// dropped.
///
/// At most half of the buckets are in use. A removal shifts the later entries of its probe
/// run back, so that no tombstones build up.
struct IdentityTable {
    /// One bucket: an object's address (0 when the bucket is empty) and its value.
    private struct Bucket {
        var address: UInt
        var value: Int
    }

    private var buckets: ContiguousArray<Bucket>
    /// How far a hashed address is shifted right to give its home bucket: 64 minus log₂ of
    /// the bucket count.
    private var shift: UInt64
    /// The number of identities in the table.
    private(set) var count = 0

    /// An empty table that holds `capacity` identities without growing.
    init(capacity: Int = 0) {
        let bits = Self.bucketBits(holding: capacity)
        buckets = ContiguousArray(repeating: Bucket(address: 0, value: 0), count: 1 << bits)
        shift = UInt64(64 - bits)
    }

    var isEmpty: Bool { count == 0 }

    /// The value stored for the object `id` identifies, or `nil` when it is not in the table.
    ///
    /// - Complexity: O(1) on average.
    subscript(id: ObjectIdentifier) -> Int? {
        let address = UInt(bitPattern: id)
        let shift = shift
        return buckets.withUnsafeBufferPointer { buckets in
            let mask = buckets.count - 1
            var index = Self.home(of: address, shift: shift)
            while true {
                let occupant = buckets[index].address
                if occupant == address { return buckets[index].value }
                if occupant == 0 { return nil }
                index = (index + 1) & mask
            }
        }
    }

    /// Whether `object`'s identity is in the table.
    func contains(_ object: AnyObject) -> Bool {
        self[ObjectIdentifier(object)] != nil
    }

    /// The value stored with `object`'s identity, or `nil` when it is not in the table.
    func value(for object: AnyObject) -> Int? {
        self[ObjectIdentifier(object)]
    }

    /// Adds `object`'s identity with `value`, unless it is there already.
    ///
    /// - Returns: `true` when it was not in the table yet.
    @discardableResult
    mutating func insert(_ object: AnyObject, value: Int = 0) -> Bool {
        store(value, for: ObjectIdentifier(object), replacing: false)
    }

    /// Stores `value` for the object `id` identifies, replacing any value it had.
    ///
    /// - Complexity: O(1) on average, amortised over growth.
    mutating func updateValue(_ value: Int, for id: ObjectIdentifier) {
        store(value, for: id, replacing: true)
    }

    /// Removes the object `id` identifies and returns its value, or returns `nil` when it is
    /// not in the table.
    ///
    /// - Complexity: O(1) on average.
    mutating func removeValue(for id: ObjectIdentifier) -> Int? {
        let address = UInt(bitPattern: id)
        let shift = shift
        let value = buckets.withUnsafeMutableBufferPointer { buckets -> Int? in
            let mask = buckets.count - 1
            var hole = Self.home(of: address, shift: shift)
            while buckets[hole].address != address {
                if buckets[hole].address == 0 { return nil }
                hole = (hole + 1) & mask
            }
            let value = buckets[hole].value
            // Shift back each later entry of the run whose home bucket is not between the
            // hole and the entry, so that every entry stays reachable from its home bucket.
            var next = (hole + 1) & mask
            while buckets[next].address != 0 {
                let home = Self.home(of: buckets[next].address, shift: shift)
                if (next &- home) & mask >= (next &- hole) & mask {
                    buckets[hole] = buckets[next]
                    hole = next
                }
                next = (next + 1) & mask
            }
            buckets[hole].address = 0
            return value
        }
        if value != nil { count -= 1 }
        return value
    }

    /// Stores `value` for `id`; an identity already in the table keeps its value unless
    /// `replacing`.
    ///
    /// Returns whether `id` was new.
    @discardableResult
    private mutating func store(_ value: Int, for id: ObjectIdentifier, replacing: Bool) -> Bool {
        if (count + 1) * 2 > buckets.count { grow() }
        let address = UInt(bitPattern: id)
        let shift = shift
        let isNew = buckets.withUnsafeMutableBufferPointer { buckets in
            let mask = buckets.count - 1
            var index = Self.home(of: address, shift: shift)
            while true {
                let occupant = buckets[index].address
                if occupant == 0 || occupant == address {
                    if occupant == 0 || replacing { buckets[index] = Bucket(address: address, value: value) }
                    return occupant == 0
                }
                index = (index + 1) & mask
            }
        }
        if isNew { count += 1 }
        return isNew
    }

    /// Doubles the buckets and places every entry again.
    private mutating func grow() {
        let old = buckets
        buckets = ContiguousArray(repeating: Bucket(address: 0, value: 0), count: 2 * old.count)
        shift -= 1
        let shift = shift
        buckets.withUnsafeMutableBufferPointer { buckets in
            let mask = buckets.count - 1
            for entry in old where entry.address != 0 {
                var index = Self.home(of: entry.address, shift: shift)
                while buckets[index].address != 0 { index = (index + 1) & mask }
                buckets[index] = entry
            }
        }
    }

    /// Log₂ of the bucket count that holds `capacity` identities at most half full (8 buckets
    /// at least); ``IdentitySet`` sizes its buckets so too.
    static func bucketBits(holding capacity: Int) -> Int {
        var bits = 3
        while 1 << bits < capacity * 2 { bits += 1 }
        return bits
    }

    /// The first bucket to probe for `address` (Fibonacci hashing: the top bits of the
    /// address times 2⁶⁴ divided by the golden ratio); ``IdentitySet`` hashes so too.
    @inline(__always)
    static func home(of address: UInt, shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (UInt64(address) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }
}
