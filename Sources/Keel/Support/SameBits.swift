/// Compares two values' bytes, for code that can skip work when a value is unchanged: values
/// with the same bits are the same value (the same case, payload and references), though
/// values with different bits may still be equal.
enum SameBits {
    /// Whether the `size` bytes at `a` and `b` are the same.
    ///
    ///     SameBits.compare(target, source, size: MemoryLayout<JSONValue>.size)
    @inline(__always)
    static func compare(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, size: Int) -> Bool {
        var offset = 0
        while offset + 8 <= size {
            guard
                a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    == b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            else { return false }
            offset += 8
        }
        while offset < size {
            guard a.load(fromByteOffset: offset, as: UInt8.self) == b.load(fromByteOffset: offset, as: UInt8.self)
            else { return false }
            offset += 1
        }
        return true
    }
}
