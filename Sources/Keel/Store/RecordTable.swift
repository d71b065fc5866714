/// An ``IdentityMap``'s entries by ``RecordKey``: an open-addressed table with linear
/// probing, each key beside its entry.
///
/// A `Dictionary` cost a lookup about 50 instructions and an insert about 135 (a uniqueness
/// check, a probe, then its separate key and value arrays written); building a record with
/// a related one does two lookups and two inserts. Here a probe hashes the key once
/// (``RecordKey``'s mix), walks the buckets from that slot and compares keys where they lie,
/// and an insert writes the one bucket it stops at.
///
/// The buckets number a power of two and are at most seven eighths full; a removal shifts
/// the entries after it back along their probe paths, so no bucket is ever marked deleted
/// and a lookup stops at the first empty one. Which buckets hold an entry is a byte each,
/// so that making room for a batch zeroes those bytes and leaves the buckets uninitialized
/// (an array of optional buckets wrote each one, about 140 instructions a bucket). The byte of
/// a full bucket is its key's tag, seven more bits of its hash with the top bit set: a probe
/// reads the bucket of a key only where the tags match, so passing other keys on its path
/// reads the bytes alone, not a cache line of buckets each.
///
/// A bucket is four words, two of them the key: the collection's number and the integer id,
/// or, for a text id, the number with its top bit set and a retained box of the text. A
/// ``RecordKey`` held whole (its id an enum over a string) made a bucket 48 bytes, which half
/// the inserts wrote across two cache lines (`bulk_relations` writes a new bucket a post).
///
/// Each table hashes with a seed of its own, drawn at random when it is made, as
/// `Dictionary` does: ids come from servers, and the mix of an integer id is invertible, so a
/// fixed seed would let a hostile server send ids that all probe from one bucket, and make each
/// load of a record cost time in proportion to the records loaded before it.
///
/// A class, held by its map alone: nothing copies the table, so it needs no copy on write.
final class RecordTable: Sequence {
    /// A key, in two words, and its entry.
    private struct Bucket {
        /// The key's collection number, with ``textFlag`` set when the id is text.
        let collection: Int
        /// The integer id, or the address of the retained ``TextID`` that holds a text id.
        let id: Int
        var entry: IdentityMap.Entry
    }

    /// The text of a text id, boxed so that its bucket holds it in one word.
    private final class TextID {
        let text: String

        init(_ text: String) {
            self.text = text
        }
    }

    /// The bit of ``Bucket/collection`` that marks a text id: collection numbers are indexes,
    /// never negative.
    private static let textFlag = Int.min

    /// The buckets, initialized where ``tags`` is non-zero.
    @exclusivity(unchecked) private var buckets: UnsafeMutablePointer<Bucket>?
    /// One byte per bucket: zero where it is empty, else the tag of its key (``tag(_:)``).
    @exclusivity(unchecked) private var tags: UnsafeMutablePointer<UInt8>?
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
        guard count > 0, let buckets, let tags else { return nil }
        let mask = bucketCount &- 1
        let hash = hash(key)
        let tag = Self.tag(hash)
        var slot = hash & mask
        while tags[slot] != 0 {
            if tags[slot] == tag && Self.bucket(buckets[slot], holds: key) { return slot }
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
        let tags = tags.unsafelyUnwrapped
        let mask = bucketCount &- 1
        let hash = hash(key)
        let tag = Self.tag(hash)
        var slot = hash & mask
        while tags[slot] != 0 {
            if tags[slot] == tag && Self.bucket(buckets[slot], holds: key) {
                buckets[slot].entry = entry
                return
            }
            slot = (slot &+ 1) & mask
        }
        let bucket: Bucket
        switch key.id {
        case .int(let id):
            bucket = Bucket(collection: key.collection, id: id, entry: entry)
        case .text(let text):
            let box = Int(bitPattern: Unmanaged.passRetained(TextID(text)).toOpaque())
            bucket = Bucket(collection: key.collection | Self.textFlag, id: box, entry: entry)
        }
        (buckets + slot).initialize(to: bucket)
        tags[slot] = tag
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
            guard let buckets = table.buckets, let tags = table.tags else { return nil }
            while slot < table.bucketCount {
                defer { slot += 1 }
                if tags[slot] != 0 { return (RecordTable.key(of: buckets[slot]), buckets[slot].entry) }
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
        let tags = tags.unsafelyUnwrapped
        let mask = bucketCount &- 1
        Self.releaseText(of: buckets[slot])
        (buckets + slot).deinitialize(count: 1)
        var hole = slot
        var next = (slot &+ 1) & mask
        while tags[next] != 0 {
            // The entry moves back when the hole lies on its path: its distance from the slot
            // its hash names is at least the hole's distance from it.
            let home = hash(buckets[next]) & mask
            if (next &- home) & mask >= (next &- hole) & mask {
                (buckets + hole).moveInitialize(from: buckets + next, count: 1)
                tags[hole] = tags[next]
                hole = next
            }
            next = (next &+ 1) & mask
        }
        tags[hole] = 0
        count &-= 1
    }

    /// Moves the entries into the fewest buckets that hold `minimumCapacity` of them.
    private func resize(toHold minimumCapacity: Int) {
        var newCount = Swift.max(bucketCount, Self.minimumBucketCount)
        while Self.maximumCount(forBuckets: newCount) < minimumCapacity { newCount &*= 2 }
        guard newCount != bucketCount else { return }
        let oldBuckets = buckets
        let oldTags = tags
        let oldCount = bucketCount
        let entryCount = count
        allocate(bucketCount: newCount)
        guard let oldBuckets, let oldTags else { return }
        let buckets = buckets.unsafelyUnwrapped
        let tags = tags.unsafelyUnwrapped
        let mask = newCount &- 1
        // Each key is already unique: it goes into the first empty bucket of its path, its
        // text box moved along.
        for oldSlot in 0..<oldCount where oldTags[oldSlot] != 0 {
            let bucket = (oldBuckets + oldSlot).move()
            var slot = hash(bucket) & mask
            while tags[slot] != 0 { slot = (slot &+ 1) & mask }
            (buckets + slot).initialize(to: bucket)
            tags[slot] = oldTags[oldSlot]
        }
        count = entryCount
        oldBuckets.deallocate()
        oldTags.deallocate()
    }

    /// Gives the table `bucketCount` empty buckets, the old ones forgotten.
    private func allocate(bucketCount: Int) {
        buckets = UnsafeMutablePointer<Bucket>.allocate(capacity: bucketCount)
        let tags = UnsafeMutablePointer<UInt8>.allocate(capacity: bucketCount)
        tags.initialize(repeating: 0, count: bucketCount)
        self.tags = tags
        self.bucketCount = bucketCount
        count = 0
    }

    /// Deinitializes the entries and gives back the buckets, leaving the table empty.
    private func deallocate() {
        if let buckets, let tags {
            for slot in 0..<bucketCount where tags[slot] != 0 {
                Self.releaseText(of: buckets[slot])
                (buckets + slot).deinitialize(count: 1)
            }
            buckets.deallocate()
            tags.deallocate()
        }
        buckets = nil
        tags = nil
        bucketCount = 0
        count = 0
    }

    /// How many entries `bucketCount` buckets hold before the table grows: seven eighths.
    ///
    /// The tags keep the longer runs of a fuller table cheap to pass, a byte a key; at three
    /// quarters, a batch of 101,000 records took 262,144 buckets, where 131,072 hold it.
    private static func maximumCount(forBuckets bucketCount: Int) -> Int {
        bucketCount - bucketCount / 8
    }

    /// The bytes a bucket takes: half a cache line, so that an insert writes one line.
    static var bucketStride: Int { MemoryLayout<Bucket>.stride }

    /// The fewest buckets a table that holds an entry has.
    private static let minimumBucketCount = 8

    /// `key`'s hash under the table's seed, whose low bits name its first bucket.
    @inline(__always)
    private func hash(_ key: RecordKey) -> Int {
        key._rawHashValue(seed: seed)
    }

    /// The tag of a key whose hash is `hash`: its top seven bits, which no table takes for a
    /// bucket's number, with the top bit set so that it is never zero.
    @inline(__always)
    private static func tag(_ hash: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: UInt(bitPattern: hash) &>> 57) | 0x80
    }

    /// The hash of the key `bucket` holds, as ``hash(_:)`` of that key.
    @inline(__always)
    private func hash(_ bucket: Bucket) -> Int {
        guard bucket.collection & Self.textFlag == 0 else { return hash(Self.key(of: bucket)) }
        return RecordKey.hash(collection: bucket.collection, intID: bucket.id, seed: seed)
    }

    // MARK: - Keys in two words

    /// Whether `bucket` holds `key`.
    @inline(__always)
    private static func bucket(_ bucket: Bucket, holds key: RecordKey) -> Bool {
        switch key.id {
        case .int(let id):
            return bucket.id == id && bucket.collection == key.collection
        case .text(let text):
            return bucket.collection == key.collection | textFlag && textID(of: bucket).text == text
        }
    }

    /// The key `bucket` holds.
    private static func key(of bucket: Bucket) -> RecordKey {
        guard bucket.collection & textFlag != 0 else {
            return RecordKey(collection: bucket.collection, id: .int(bucket.id))
        }
        return RecordKey(collection: bucket.collection & ~textFlag, id: .text(textID(of: bucket).text))
    }

    /// The box of a text id, which `bucket` holds retained: its collection has ``textFlag``.
    private static func textID(of bucket: Bucket) -> TextID {
        Unmanaged<TextID>.fromOpaque(UnsafeRawPointer(bitPattern: bucket.id).unsafelyUnwrapped).takeUnretainedValue()
    }

    /// Releases the box of `bucket`'s text id, if it has one, as the bucket is emptied.
    private static func releaseText(of bucket: Bucket) {
        guard bucket.collection & textFlag != 0 else { return }
        Unmanaged<TextID>.fromOpaque(UnsafeRawPointer(bitPattern: bucket.id).unsafelyUnwrapped).release()
    }
}
