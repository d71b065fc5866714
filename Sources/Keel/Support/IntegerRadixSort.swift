/// A stable sort of positions by integer keys: a least-significant-digit radix sort.
///
/// A comparison sort of *n* keys needs about *n* log₂ *n* comparisons (1.7 million for
/// 100,000 keys); this sort reads the keys once to count digits, then moves each key once
/// per 11-bit digit that the keys' range needs: two passes for keys that span a million.
/// Keys are machine integers, so equal keys are told apart by position and the order is the
/// comparison sort's, ties included.
enum IntegerRadixSort {
    /// Below this many keys a comparison sort is quicker than setting up the digit counts.
    static let comparisonSortLimit = 256

    /// How many bits of a key each pass orders by: 2,048 counters, which stay in the cache.
    private static let digitBits = 11

    /// The positions of `keys`, ordered by their keys ascending; positions with equal keys
    /// keep their order.
    ///
    /// - Complexity: O(*n* · *d*), where *d* is the number of 11-bit digits of the range
    ///   from the smallest to the largest key (at most 6); O(*n* log *n*) below
    ///   ``comparisonSortLimit`` keys.
    static func order(of keys: UnsafeBufferPointer<Int>) -> ContiguousArray<Int> {
        guard keys.count >= comparisonSortLimit else { return comparisonOrder(of: keys) }
        // The keys as unsigned offsets from the smallest, in the same order.
        var smallest = UInt64.max
        var largest = UInt64.min
        for key in keys {
            let biased = biased(key)
            smallest = min(smallest, biased)
            largest = max(largest, biased)
        }
        let bits = UInt64.bitWidth - (largest - smallest).leadingZeroBitCount
        let passes = (bits + digitBits - 1) / digitBits
        var offsets = ContiguousArray<UInt64>(unsafeUninitializedCapacity: keys.count) { buffer, count in
            for index in keys.indices { buffer[index] = biased(keys[index]) - smallest }
            count = keys.count
        }
        var positions = ContiguousArray<Int>(unsafeUninitializedCapacity: keys.count) { buffer, count in
            for index in keys.indices { buffer[index] = index }
            count = keys.count
        }
        guard passes > 0 else { return positions }
        var counts = digitCounts(of: offsets, passes: passes)
        // Every element of the moved arrays is written by a pass before it is read.
        var movedOffsets = ContiguousArray<UInt64>(unsafeUninitializedCapacity: keys.count) { $1 = keys.count }
        var movedPositions = ContiguousArray<Int>(unsafeUninitializedCapacity: keys.count) { $1 = keys.count }
        counts.withUnsafeMutableBufferPointer { counts in
            for pass in 0..<passes {
                let table = UnsafeMutableBufferPointer(rebasing: counts[pass << digitBits..<(pass + 1) << digitBits])
                guard !table.contains(keys.count) else { continue }
                distribute(
                    offsets,
                    positions,
                    into: &movedOffsets,
                    &movedPositions,
                    shift: pass * digitBits,
                    counts: table
                )
                swap(&offsets, &movedOffsets)
                swap(&positions, &movedPositions)
            }
        }
        return positions
    }

    /// The positions ordered by comparing (key, position) pairs.
    private static func comparisonOrder(of keys: UnsafeBufferPointer<Int>) -> ContiguousArray<Int> {
        var pairs = ContiguousArray(zip(keys, keys.indices))
        pairs.sort { $0 < $1 }
        return ContiguousArray(unsafeUninitializedCapacity: pairs.count) { buffer, count in
            for index in pairs.indices { buffer[index] = pairs[index].1 }
            count = pairs.count
        }
    }

    /// `key` as an unsigned integer that orders as the key does.
    @inline(__always)
    private static func biased(_ key: Int) -> UInt64 {
        UInt64(UInt(bitPattern: key)) ^ (1 << 63)
    }

    /// How many offsets have each value of each digit: `passes` tables of 2,048 counters,
    /// filled in one read of the offsets.
    private static func digitCounts(of offsets: ContiguousArray<UInt64>, passes: Int) -> ContiguousArray<Int> {
        var counts = ContiguousArray(repeating: 0, count: passes << digitBits)
        let mask = UInt64(1 << digitBits - 1)
        counts.withUnsafeMutableBufferPointer { counts in
            for offset in offsets {
                for pass in 0..<passes {
                    counts[pass << digitBits | Int((offset >> UInt64(pass * digitBits)) & mask)] += 1
                }
            }
        }
        return counts
    }

    /// Moves the offsets and their positions into the moved arrays, ordered stably by the
    /// digit at `shift`, turning that digit's `counts` into starting places on the way.
    private static func distribute(
        _ offsets: ContiguousArray<UInt64>,
        _ positions: ContiguousArray<Int>,
        into movedOffsets: inout ContiguousArray<UInt64>,
        _ movedPositions: inout ContiguousArray<Int>,
        shift: Int,
        counts: UnsafeMutableBufferPointer<Int>
    ) {
        var start = 0
        for digit in counts.indices {
            let count = counts[digit]
            counts[digit] = start
            start += count
        }
        let mask = UInt64(1 << digitBits - 1)
        offsets.withUnsafeBufferPointer { offsets in
            positions.withUnsafeBufferPointer { positions in
                movedOffsets.withUnsafeMutableBufferPointer { movedOffsets in
                    movedPositions.withUnsafeMutableBufferPointer { movedPositions in
                        for index in offsets.indices {
                            let offset = offsets[index]
                            let digit = Int((offset >> UInt64(shift)) & mask)
                            let place = counts[digit]
                            counts[digit] = place + 1
                            movedOffsets[place] = offset
                            movedPositions[place] = positions[index]
                        }
                    }
                }
            }
        }
    }
}
