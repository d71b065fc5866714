/// Finds the slot of a key in a layout of four keys or more, in a few instructions whichever
/// slot it is.
///
/// Two small ASCII strings (up to 15 bytes: nearly every attribute name) are equal exactly
/// when their bits are equal (``StringIdentity``). So when every key of a layout is one,
/// its slots are kept in an open-addressing table hashed by those bits: a lookup hashes the
/// key, reads a bucket and compares two words, where a linear search compares the key with
/// every slot before its own and a dictionary hashes its characters.
///
/// Other keys (and every key of a layout that has another kind) are compared with each
/// slot's, bits before characters, or, past a dozen keys, found in a dictionary.
final class SlotIndex: Sendable {
    /// Below this many keys a linear search is as fast on average: it compares a key in
    /// about eight instructions, where a lookup by bits takes about twenty.
    static let minimumKeys = 4

    /// Each bucket holds a slot plus one, or 0 when it is empty.
    ///
    /// Their number is a power of two at least twice the number of keys, so a probe ends at an
    /// empty bucket. Empty when a key is not a small ASCII string.
    private let buckets: ContiguousArray<UInt8>
    /// How far a key's hash is shifted right to give a bucket.
    private let shift: UInt64
    /// The slot of each key, for layouts too large to search linearly.
    private let slots: [String: Int]?

    /// An index of `keys`, or `nil` when there are fewer than ``minimumKeys``.
    init?(keys: ContiguousArray<String>) {
        guard keys.count >= Self.minimumKeys else { return nil }
        if keys.count > OrderedStringMap<JSONValue>.linearSearchLimit {
            var slots = [String: Int](minimumCapacity: keys.count)
            for (slot, key) in keys.enumerated() { slots[key] = slot }
            self.slots = slots
        } else {
            slots = nil
        }
        guard keys.count < 256, keys.allSatisfy(StringIdentity.isSmallASCII) else {
            buckets = []
            shift = 0
            return
        }
        var bits = 2
        while 1 << bits < 2 * keys.count { bits += 1 }
        var buckets = ContiguousArray<UInt8>(repeating: 0, count: 1 << bits)
        let shift = UInt64(64 - bits)
        for (slot, key) in keys.enumerated() {
            var bucket = Self.bucket(of: key, shift: shift)
            while buckets[bucket] != 0 { bucket = (bucket + 1) & (buckets.count - 1) }
            buckets[bucket] = UInt8(slot + 1)
        }
        self.buckets = buckets
        self.shift = shift
    }

    /// The slot of `key` among `keys`, the keys this index was built from; `nil` when they
    /// do not have it.
    @inline(__always)
    func slot(of key: String, in keys: UnsafeBufferPointer<String>) -> Int? {
        if !buckets.isEmpty && StringIdentity.isSmallASCII(key) { return bucketSlot(of: key, in: keys) }
        if let slots { return slots[key] }
        return StringIdentity.position(of: key, in: keys)
    }

    /// The slot of `key` among `keys` when one of them has its bits, found without comparing
    /// characters (so without a call): `nil` when none has them, though one may be an equal
    /// string with other bits.
    @inline(__always)
    func slot(ofSameBitsAs key: String, in keys: UnsafeBufferPointer<String>) -> Int? {
        guard !buckets.isEmpty && StringIdentity.isSmallASCII(key) else {
            return StringIdentity.position(ofSameBitsAs: key, in: keys)
        }
        return bucketSlot(of: key, in: keys)
    }

    /// The slot of the small ASCII `key` by its buckets: the key whose bits it has, as every
    /// small ASCII string equal to it has them.
    @inline(__always)
    private func bucketSlot(of key: String, in keys: UnsafeBufferPointer<String>) -> Int? {
        buckets.withUnsafeBufferPointer { buckets in
            var bucket = Self.bucket(of: key, shift: shift)
            while true {
                let entry = Int(buckets[bucket])
                if entry == 0 { return nil }
                if StringIdentity.haveSameBits(keys[entry - 1], key) { return entry - 1 }
                bucket = (bucket + 1) & (buckets.count - 1)
            }
        }
    }

    /// The bucket of `key` (Fibonacci hashing of its bits).
    @inline(__always)
    private static func bucket(of key: String, shift: UInt64) -> Int {
        let hash = UInt64(StringIdentity.bitsHash(key)) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: hash >> shift)
    }
}
