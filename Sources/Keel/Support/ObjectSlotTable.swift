/// A map from object identities to integers: open addressing over the objects'
/// addresses, with linear probing and backward-shift deletion.
///
/// ``ModelSlots`` finds a model's slot on every removal. A `Dictionary` keyed by
/// `ObjectIdentifier` hashes each address with the standard library's seeded SipHash, about
/// 150 instructions per insertion, lookup or removal. An address needs no such hashing: it
/// is unique while its object lives, and a multiplicative hash of it spreads well. The table
/// does not hold its objects: whoever adds an object keeps it alive until it is removed.
///
/// At most three quarters of the buckets are in use; a removal shifts the entries after it
/// back, so that no tombstones build up.
struct ObjectSlotTable {
    /// One bucket: an object's address (0 when the bucket is empty) and its value.
    private struct Bucket {
        var address: UInt
        var value: Int
    }

    private var buckets: ContiguousArray<Bucket>
    /// How far the hash is shifted right to give a bucket: 64 − log₂(bucket count).
    private var shift: UInt64
    /// The number of objects in the table.
    private(set) var count = 0

    /// An empty table with room for `minimumCapacity` objects before it grows.
    init(minimumCapacity: Int = 0) {
        var bits = 3
        while (1 << bits) * 3 / 4 < minimumCapacity { bits += 1 }
        buckets = ContiguousArray(repeating: Bucket(address: 0, value: 0), count: 1 << bits)
        shift = UInt64(64 - bits)
    }

    /// The value stored for the object `id` identifies, or `nil` when it is not in the table.
    ///
    /// - Complexity: O(1) on average.
    subscript(id: ObjectIdentifier) -> Int? {
        let address = UInt(bitPattern: id)
        return buckets.withUnsafeBufferPointer { buckets in
            let mask = buckets.count - 1
            var index = bucket(of: address)
            while true {
                let occupant = buckets[index].address
                if occupant == address { return buckets[index].value }
                if occupant == 0 { return nil }
                index = (index + 1) & mask
            }
        }
    }

    /// Stores `value` for the object `id` identifies, replacing any value it had.
    ///
    /// - Complexity: O(1) on average, amortised over growth.
    mutating func updateValue(_ value: Int, for id: ObjectIdentifier) {
        if (count + 1) * 4 > buckets.count * 3 { grow() }
        let address = UInt(bitPattern: id)
        let shift = shift
        let isNew = buckets.withUnsafeMutableBufferPointer { buckets in
            let mask = buckets.count - 1
            var index = Self.bucket(of: address, shift: shift)
            while true {
                let occupant = buckets[index].address
                if occupant == address || occupant == 0 {
                    buckets[index] = Bucket(address: address, value: value)
                    return occupant == 0
                }
                index = (index + 1) & mask
            }
        }
        if isNew { count += 1 }
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
            var hole = Self.bucket(of: address, shift: shift)
            while buckets[hole].address != address {
                if buckets[hole].address == 0 { return nil }
                hole = (hole + 1) & mask
            }
            let value = buckets[hole].value
            // Shift back each later entry of the run whose home bucket is not between the
            // hole and the entry, so that every entry stays reachable from its home bucket.
            var next = (hole + 1) & mask
            while buckets[next].address != 0 {
                let home = Self.bucket(of: buckets[next].address, shift: shift)
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

    /// Doubles the buckets and places every entry again.
    private mutating func grow() {
        let old = buckets
        buckets = ContiguousArray(repeating: Bucket(address: 0, value: 0), count: 2 * old.count)
        shift -= 1
        let shift = shift
        buckets.withUnsafeMutableBufferPointer { buckets in
            let mask = buckets.count - 1
            for entry in old where entry.address != 0 {
                var index = Self.bucket(of: entry.address, shift: shift)
                while buckets[index].address != 0 { index = (index + 1) & mask }
                buckets[index] = entry
            }
        }
    }

    @inline(__always)
    private func bucket(of address: UInt) -> Int {
        Self.bucket(of: address, shift: shift)
    }

    @inline(__always)
    private static func bucket(of address: UInt, shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (UInt64(address) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }
}
