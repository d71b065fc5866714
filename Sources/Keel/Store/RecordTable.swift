/// An ``IdentityMap``'s entries by ``RecordKey``: an open-addressed table with linear
/// probing, each key beside its entry.
///
/// A `Dictionary` cost a lookup about 50 instructions and an insert about 135 (a uniqueness
/// check, a probe, then its separate key and value arrays written); building a record with
/// a related one does two lookups and two inserts. Here a probe hashes the key once
/// (``RecordKey``'s mix), walks the buckets from that slot and compares keys where they lie,
/// and an insert writes the one bucket it stops at.
///
/// The buckets number a power of two and are at most three quarters full; a removal shifts
/// the entries after it back along their probe paths, so no bucket is ever marked deleted
/// and a lookup stops at the first empty one. Which buckets hold an entry is a byte each,
/// so that making room for a batch zeroes those bytes and leaves the buckets uninitialized
/// (an array of optional buckets wrote each one, about 140 instructions a bucket).
///
/// Each table hashes with a seed of its own, drawn at random when it is made, as
/// `Dictionary` does: ids come from servers, and the mix of an integer id is invertible, so a
/// fixed seed would let a hostile server send ids that all probe from one bucket, and make each
/// load of a record cost time in proportion to the records loaded before it.
///
/// A class, held by its map alone: nothing copies the table, so it needs no copy on write.
final class RecordTable: Sequence {
    /// A key and its entry.
    private struct Bucket {
        let key: RecordKey
        var entry: IdentityMap.Entry
    }

    /// The buckets, initialized where ``occupied`` is non-zero.
    @exclusivity(unchecked) private var buckets: UnsafeMutablePointer<Bucket>?
    /// One byte per bucket: non-zero where the bucket holds an entry.
    @exclusivity(unchecked) private var occupied: UnsafeMutablePointer<UInt8>?
    /// The number of buckets: zero, or a power of two.
    @exclusivity(unchecked) private var bucketCount = 0
    /// The number of entries.
    @exclusivity(unchecked) private(set) var count = 0
    /// The seed the table's keys are hashed with.
    private let seed: Int

    /// Creates an empty table, with a seed of its own.
    ///
    /// - Parameter seed: The seed to hash keys with: random unless a test needs to choose it.
    init(seed: Int = Int.random(in: .min ... .max)) {
        self.seed = seed
    }

    deinit {
        deallocate()
    }

    /// How many entries the table holds before it grows.
    var capacity: Int { Self.maximumCount(forBuckets: bucketCount) }

    /// The entry under `key`, if any.
    ///
    /// - Complexity: O(1) on average.
    subscript(key: RecordKey) -> IdentityMap.Entry? {
        guard let slot = slot(of: key) else { return nil }
        return buckets.unsafelyUnwrapped[slot].entry
    }

    /// The entry in the bucket `slot` (``slot(of:)``), read or written in place.
    ///
    /// - Precondition: No insert or removal since `slot` was found.
    subscript(entryAt slot: Int) -> IdentityMap.Entry {
        get { buckets.unsafelyUnwrapped[slot].entry }
        set { buckets.unsafelyUnwrapped[slot].entry = newValue }
    }

    /// The bucket holding `key`'s entry, if any: valid until the next insert or removal.
    ///
    /// - Complexity: O(1) on average.
    func slot(of key: RecordKey) -> Int? {
        guard count > 0, let buckets, let occupied else { return nil }
        let mask = bucketCount &- 1
        var slot = hash(key) & mask
        while occupied[slot] != 0 {
            if buckets[slot].key == key { return slot }
            slot = (slot &+ 1) & mask
        }
        return nil
    }

    /// Enters `entry` under `key`, replacing the entry there, if any.
    ///
    /// - Complexity: O(1) on average; O(*n*) when the table grows.
    func insert(_ entry: IdentityMap.Entry, for key: RecordKey) {
        if count >= capacity { resize(toHold: count &+ 1) }
        let buckets = buckets.unsafelyUnwrapped
        let occupied = occupied.unsafelyUnwrapped
        let mask = bucketCount &- 1
        var slot = hash(key) & mask
        while occupied[slot] != 0 {
            if buckets[slot].key == key {
                buckets[slot].entry = entry
                return
            }
            slot = (slot &+ 1) & mask
        }
        (buckets + slot).initialize(to: Bucket(key: key, entry: entry))
        occupied[slot] = 1
        count &+= 1
    }

    /// Removes the entry under `key`, if any.
    ///
    /// - Complexity: O(1) on average.
    func removeEntry(for key: RecordKey) {
        guard let slot = slot(of: key) else { return }
        removeBucket(at: slot)
    }

    /// Removes every entry `shouldRemove` returns `true` for.
    ///
    /// - Complexity: O(*n*), where *n* is the number of buckets.
    func removeAll(where shouldRemove: (IdentityMap.Entry) -> Bool) {
        let kept = map { $0 }.filter { !shouldRemove($0.value) }
        guard kept.count != count else { return }
        let keptBuckets = bucketCount
        deallocate()
        allocate(bucketCount: keptBuckets)
        for (key, entry) in kept { insert(entry, for: key) }
    }

    /// Removes every entry and gives back the buckets.
    func removeAll() {
        deallocate()
    }

    /// Makes room for `minimumCapacity` entries in all, so that inserting up to that many
    /// does not grow the table.
    ///
    /// - Complexity: O(*n*) when the table grows, else O(1).
    func reserveCapacity(_ minimumCapacity: Int) {
        if minimumCapacity > capacity { resize(toHold: minimumCapacity) }
    }

    /// The entries with their keys, in no particular order.
    func makeIterator() -> Iterator {
        Iterator(table: self)
    }

    /// The entries of a table with their keys, bucket by bucket.
    struct Iterator: IteratorProtocol {
        /// The table, kept alive while iterated.
        let table: RecordTable
        /// The next bucket to look at.
        private var slot = 0

        /// An iterator from the first bucket of `table`.
        init(table: RecordTable) {
            self.table = table
        }

        /// The entry of the next bucket that holds one, with its key.
        mutating func next() -> (key: RecordKey, value: IdentityMap.Entry)? {
            guard let buckets = table.buckets, let occupied = table.occupied else { return nil }
            while slot < table.bucketCount {
                defer { slot += 1 }
                if occupied[slot] != 0 { return (buckets[slot].key, buckets[slot].entry) }
            }
            return nil
        }
    }

    // MARK: - Buckets

    /// Empties the bucket `slot`, moving each entry after it that may sit earlier on its probe
    /// path back into the gap, so that every lookup still reaches its entry before an empty
    /// bucket.
    private func removeBucket(at slot: Int) {
        let buckets = buckets.unsafelyUnwrapped
        let occupied = occupied.unsafelyUnwrapped
        let mask = bucketCount &- 1
        (buckets + slot).deinitialize(count: 1)
        var hole = slot
        var next = (slot &+ 1) & mask
        while occupied[next] != 0 {
            // The entry moves back when the hole lies on its path: its distance from the slot
            // its hash names is at least the hole's distance from it.
            let home = hash(buckets[next].key) & mask
            if (next &- home) & mask >= (next &- hole) & mask {
                (buckets + hole).moveInitialize(from: buckets + next, count: 1)
                hole = next
            }
            next = (next &+ 1) & mask
        }
        occupied[hole] = 0
        count &-= 1
    }

    /// Moves the entries into the fewest buckets that hold `minimumCapacity` of them.
    private func resize(toHold minimumCapacity: Int) {
        var newCount = Swift.max(bucketCount, Self.minimumBucketCount)
        while Self.maximumCount(forBuckets: newCount) < minimumCapacity { newCount &*= 2 }
        guard newCount != bucketCount else { return }
        let oldBuckets = buckets
        let oldOccupied = occupied
        let oldCount = bucketCount
        allocate(bucketCount: newCount)
        guard let oldBuckets, let oldOccupied else { return }
        for slot in 0..<oldCount where oldOccupied[slot] != 0 {
            let bucket = (oldBuckets + slot).move()
            insert(bucket.entry, for: bucket.key)
        }
        oldBuckets.deallocate()
        oldOccupied.deallocate()
    }

    /// Gives the table `bucketCount` empty buckets, the old ones forgotten.
    private func allocate(bucketCount: Int) {
        buckets = UnsafeMutablePointer<Bucket>.allocate(capacity: bucketCount)
        let occupied = UnsafeMutablePointer<UInt8>.allocate(capacity: bucketCount)
        occupied.initialize(repeating: 0, count: bucketCount)
        self.occupied = occupied
        self.bucketCount = bucketCount
        count = 0
    }

    /// Deinitializes the entries and gives back the buckets, leaving the table empty.
    private func deallocate() {
        if let buckets, let occupied {
            for slot in 0..<bucketCount where occupied[slot] != 0 { (buckets + slot).deinitialize(count: 1) }
            buckets.deallocate()
            occupied.deallocate()
        }
        buckets = nil
        occupied = nil
        bucketCount = 0
        count = 0
    }

    /// How many entries `bucketCount` buckets hold before the table grows: three quarters.
    private static func maximumCount(forBuckets bucketCount: Int) -> Int {
        bucketCount - bucketCount / 4
    }

    /// The fewest buckets a table that holds an entry has.
    private static let minimumBucketCount = 8

    /// `key`'s hash under the table's seed, whose low bits name its first bucket.
    @inline(__always)
    private func hash(_ key: RecordKey) -> Int {
        key._rawHashValue(seed: seed)
    }
}
