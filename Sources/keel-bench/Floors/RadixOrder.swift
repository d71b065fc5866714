/// The floor's stable sort of positions by integer keys: a least-significant-digit radix
/// sort over the 11-bit digits that the keys' range needs, written without the library.
enum RadixOrder {
    /// The positions of `keys` ordered by key ascending; equal keys keep their order.
    static func positions(sortedBy keys: UnsafeBufferPointer<Int>) -> [Int] {
        let count = keys.count
        let flip: UInt64 = 1 << 63
        var low = UInt64.max
        var high = UInt64.min
        for key in keys {
            let value = UInt64(UInt(bitPattern: key)) ^ flip
            low = min(low, value)
            high = max(high, value)
        }
        let width = count == 0 ? 0 : UInt64.bitWidth - (high - low).leadingZeroBitCount
        var values = [UInt64](unsafeUninitializedCapacity: count) { buffer, initialized in
            for index in 0..<count { buffer[index] = (UInt64(UInt(bitPattern: keys[index])) ^ flip) - low }
            initialized = count
        }
        var positions = [Int](unsafeUninitializedCapacity: count) { buffer, initialized in
            for index in 0..<count { buffer[index] = index }
            initialized = count
        }
        var nextValues = [UInt64](unsafeUninitializedCapacity: count) { $1 = count }
        var nextPositions = [Int](unsafeUninitializedCapacity: count) { $1 = count }
        var table = [Int](repeating: 0, count: 2_048)
        var shift = 0
        while shift < width {
            values.withUnsafeBufferPointer { values in
                positions.withUnsafeBufferPointer { positions in
                    nextValues.withUnsafeMutableBufferPointer { nextValues in
                        nextPositions.withUnsafeMutableBufferPointer { nextPositions in
                            table.withUnsafeMutableBufferPointer { table in
                                table.update(repeating: 0)
                                for value in values { table[Int(value >> UInt64(shift) & 2_047)] += 1 }
                                var start = 0
                                for digit in 0..<2_048 {
                                    let size = table[digit]
                                    table[digit] = start
                                    start += size
                                }
                                for index in 0..<count {
                                    let digit = Int(values[index] >> UInt64(shift) & 2_047)
                                    let place = table[digit]
                                    table[digit] = place + 1
                                    nextValues[place] = values[index]
                                    nextPositions[place] = positions[index]
                                }
                            }
                        }
                    }
                }
            }
            swap(&values, &nextValues)
            swap(&positions, &nextPositions)
            shift += 11
        }
        return positions
    }
}
