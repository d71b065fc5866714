/// A set of object identities: which models a smart `set` found or added (``UpdateLists``),
/// for the removal of those it left out.
///
/// ``IdentityTable`` without the values: one word a bucket instead of two, so that the table
/// a `set` of *n* models zeroes, fills and reads is half the size (a `set` of 100,000 models
/// zeroes 2 MB instead of 4), with the same hashing and probing. It does not hold its objects:
/// whoever adds one keeps it alive while the set is used.
///
/// At most half of the buckets are in use.
struct IdentitySet {
    /// The addresses of the objects, 0 in an empty bucket.
    private var buckets: ContiguousArray<UInt>
    /// How far a hashed address is shifted right to give its home bucket: 64 minus log₂ of
    /// the bucket count.
    private var shift: UInt64
    /// The number of identities in the set.
    private(set) var count = 0

    /// An empty set that holds `capacity` identities without growing.
    init(capacity: Int = 0) {
        let bits = IdentityTable.bucketBits(holding: capacity)
        buckets = ContiguousArray(repeating: 0, count: 1 << bits)
        shift = UInt64(64 - bits)
    }

    /// Whether `object`'s identity is in the set.
    ///
    /// - Complexity: O(1) on average.
    func contains(_ object: AnyObject) -> Bool {
        let address = UInt(bitPattern: ObjectIdentifier(object))
        let shift = shift
        return buckets.withUnsafeBufferPointer { buckets in
            let mask = buckets.count - 1
            var index = IdentityTable.home(of: address, shift: shift)
            while true {
                let occupant = buckets[index]
                if occupant == address { return true }
                if occupant == 0 { return false }
                index = (index + 1) & mask
            }
        }
    }

    /// Adds `object`'s identity, unless it is there already.
    ///
    /// - Returns: `true` when it was not in the set yet.
    /// - Complexity: O(1) on average, amortised over growth.
    @discardableResult
    mutating func insert(_ object: AnyObject) -> Bool {
        if (count + 1) * 2 > buckets.count { grow() }
        let address = UInt(bitPattern: ObjectIdentifier(object))
        let shift = shift
        let isNew = buckets.withUnsafeMutableBufferPointer { buckets in
            let mask = buckets.count - 1
            var index = IdentityTable.home(of: address, shift: shift)
            while true {
                let occupant = buckets[index]
                if occupant == address { return false }
                if occupant == 0 {
                    buckets[index] = address
                    return true
                }
                index = (index + 1) & mask
            }
        }
        if isNew { count += 1 }
        return isNew
    }

    /// Doubles the buckets and places every identity again.
    private mutating func grow() {
        let old = buckets
        buckets = ContiguousArray(repeating: 0, count: 2 * old.count)
        shift -= 1
        let shift = shift
        buckets.withUnsafeMutableBufferPointer { buckets in
            let mask = buckets.count - 1
            for address in old where address != 0 {
                var index = IdentityTable.home(of: address, shift: shift)
                while buckets[index] != 0 { index = (index + 1) & mask }
                buckets[index] = address
            }
        }
    }
}
