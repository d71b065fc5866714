extension JSONParser {
    /// A small direct-mapped cache from the bytes of a key to its string.
    ///
    /// The objects of an array usually repeat the same keys; finding a key here costs a
    /// hash and a comparison of a few bytes instead of creating a string. The entries live
    /// in memory the cache owns, so a lookup reads them without a bounds or uniqueness check
    /// and compares the bytes through pointers. Only the slots a key has filled are
    /// initialized (`used`), so parsing a small document, such as one stored record, does
    /// not fill and destroy every slot.
    struct KeyCache: ~Copyable {
        private struct Entry {
            var bytes: Range<Int>
            var key: String
        }

        private static let size = 64
        private let entries: UnsafeMutablePointer<Entry>
        /// The slots that hold an entry, one bit each.
        private var used: UInt64 = 0

        init() {
            entries = .allocate(capacity: Self.size)
        }

        deinit {
            var remaining = used
            while remaining != 0 {
                (entries + remaining.trailingZeroBitCount).deinitialize(count: 1)
                remaining &= remaining &- 1
            }
            entries.deallocate()
        }

        /// The key whose (ASCII, escape-free) bytes are `range` of `bytes`, and its slot; `hash` is
        /// a hash of those bytes.
        ///
        /// Keys in different slots have different bytes.
        mutating func key(for range: Range<Int>, hash: UInt32, in bytes: UnsafeBufferPointer<UInt8>) -> (String, Int) {
            let slot = Int(truncatingIfNeeded: (hash ^ hash >> 11) & UInt32(Self.size - 1))
            let entry = entries + slot
            let bit: UInt64 = 1 << UInt64(slot)
            guard used & bit != 0 else {
                let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
                entry.initialize(to: Entry(bytes: range, key: key))
                used |= bit
                return (key, slot)
            }
            let cached = entry.pointee.bytes
            if cached.count == range.count, !range.isEmpty, let base = bytes.baseAddress,
                Self.equal(base + cached.lowerBound, base + range.lowerBound, count: range.count)
            {
                return (entry.pointee.key, slot)
            }
            let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            entry.pointee = Entry(bytes: range, key: key)
            return (key, slot)
        }

        /// Whether the `count` bytes at `first` and at `second` are equal.
        @inline(__always)
        private static func equal(_ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>, count: Int) -> Bool {
            var index = 0
            while index < count {
                guard first[index] == second[index] else { return false }
                index &+= 1
            }
            return true
        }
    }
}
