/// Comparing strings by their bits before their characters.
///
/// Two strings with the same bits are the same string: a small string holds its bytes in
/// them, a large one points to its storage. And two small ASCII strings with different bits
/// are different strings, since no ASCII text is canonically equivalent to other text.
/// Attribute names are nearly always small ASCII strings, so most comparisons are decided
/// by the bits in a few instructions, where `==` on two different strings takes the slower
/// path that checks canonical equivalence.
enum StringIdentity {
    /// Whether `a` and `b` are equal, deciding by their bits when they can.
    @inline(__always)
    static func equal(_ a: String, _ b: String) -> Bool {
        #if _pointerBitWidth(_64)
            let (a0, a1) = unsafeBitCast(a, to: (UInt64, UInt64).self)
            let (b0, b1) = unsafeBitCast(b, to: (UInt64, UInt64).self)
            if a0 == b0 && a1 == b1 { return true }
            // The top three bits of a string's second word are all set for a small ASCII
            // string (immortal, ASCII, small: the standard library's ABI-stable layout).
            if (a1 & b1) >> 61 == 0b111 { return false }
        #endif
        return a == b
    }

    /// Whether `string` is a small ASCII string (up to 15 bytes, held in its own bits), so
    /// that it equals another such string exactly when their bits are equal.
    @inline(__always)
    static func isSmallASCII(_ string: String) -> Bool {
        #if _pointerBitWidth(_64)
            return unsafeBitCast(string, to: (UInt64, UInt64).self).1 >> 61 == 0b111
        #else
            return false
        #endif
    }

    /// Whether `a` and `b` have the same bits: are the same string (equal strings may not,
    /// except two small ASCII strings).
    @inline(__always)
    static func haveSameBits(_ a: String, _ b: String) -> Bool {
        #if _pointerBitWidth(_64)
            let (a0, a1) = unsafeBitCast(a, to: (UInt64, UInt64).self)
            let (b0, b1) = unsafeBitCast(b, to: (UInt64, UInt64).self)
            return a0 == b0 && a1 == b1
        #else
            return false
        #endif
    }

    /// The position of the first element equal to `key`.
    @inline(__always)
    static func position(of key: String, in keys: UnsafeBufferPointer<String>) -> Int? {
        for position in keys.indices where equal(keys[position], key) { return position }
        return nil
    }

    /// The position of the first element with the same bits as `key`.
    @inline(__always)
    static func position(ofSameBitsAs key: String, in keys: UnsafeBufferPointer<String>) -> Int? {
        for position in keys.indices where haveSameBits(keys[position], key) { return position }
        return nil
    }

    /// The position of the first entry whose key equals `key`.
    @inline(__always)
    static func position<Value>(of key: String, in entries: UnsafeBufferPointer<(key: String, value: Value)>) -> Int? {
        for position in entries.indices where equal(entries[position].key, key) { return position }
        return nil
    }

    /// A hash of the string's bits: equal for the same bits, not always for equal strings.
    @inline(__always)
    static func bitsHash(_ string: String) -> UInt {
        #if _pointerBitWidth(_64)
            let (low, high) = unsafeBitCast(string, to: (UInt64, UInt64).self)
            return UInt(truncatingIfNeeded: low ^ (high &* 0x100_0000_01B3))
        #else
            return 0
        #endif
    }
}
