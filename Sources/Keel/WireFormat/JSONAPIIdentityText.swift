/// The digits of a resource's `id`, read as cheaply as the string allows.
///
/// Nearly every id of a document is a small ASCII string, held in the string's own two words
/// (the standard library's ABI-stable layout, on which ``StringIdentity`` relies too):
/// `String.withUTF8` copies such a string out through a general path that cost more than
/// reading its few digits.
enum JSONAPIIdentityText {
    /// The value of `text` as a canonical decimal (ASCII digits, no leading zero but in `0`),
    /// read from a small ASCII string's own two words: `.some(nil)` when such a string is no
    /// canonical decimal, `nil` when `text` is not a small ASCII string (read its bytes then).
    @inline(__always)
    static func smallDecimal(_ text: String) -> Int?? {
        #if _pointerBitWidth(_64) && _endian(little)
            guard StringIdentity.isSmallASCII(text) else { return nil }
            return .some(decimal(ofSmallWords: unsafeBitCast(text, to: (UInt64, UInt64).self)))
        #else
            return nil
        #endif
    }

    /// The value of the small ASCII string whose two words these are as a canonical decimal,
    /// or `nil` when it is none.
    ///
    /// Every id of a document is read here, most of them a few digits: the words are read
    /// in place, without the closure and the overflow checks of a walk over the bytes (at most
    /// 15 digits never overflow `Int`).
    @inline(__always)
    static func decimal(ofSmallWords words: (UInt64, UInt64)) -> Int? {
        let (low, high) = words
        // A small string's count is the low four bits of its last byte.
        let count = Int(truncatingIfNeeded: high >> 56) & 0x0F
        guard count > 0, low & 0xFF != 0x30 || count == 1 else { return nil }
        var number = 0
        for position in 0..<count {
            let word = position < 8 ? low : high
            let digit = (word >> UInt64(truncatingIfNeeded: (position & 7) &* 8)) & 0xFF &- 0x30
            guard digit < 10 else { return nil }
            number = number &* 10 &+ Int(truncatingIfNeeded: digit)
        }
        return number
    }
}
