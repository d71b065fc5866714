/// The UTF-8 bytes of a resource's `type` and `id`, read as cheaply as the string allows.
///
/// Nearly every type and id of a document is a small ASCII string, held in the string's own
/// two words. `String.withUTF8` copies such a string out through a general path that cost
/// more than hashing or reading its few bytes; here they are read from the words themselves
/// (the standard library's ABI-stable layout, on which ``StringIdentity`` relies too), and
/// any other string goes through `withUTF8`. Either way `body` sees the same bytes.
enum JSONAPIIdentityText {
    /// Calls `body` with the UTF-8 bytes of `text`, valid only during the call.
    @inline(__always)
    static func withBytes<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        #if _pointerBitWidth(_64) && _endian(little)
            if StringIdentity.isSmallASCII(text) {
                let words = unsafeBitCast(text, to: (UInt64, UInt64).self)
                // A small string's count is the low four bits of its last byte.
                let count = Int(truncatingIfNeeded: words.1 >> 56) & 0x0F
                return withUnsafeBytes(of: words) { raw in
                    body(UnsafeBufferPointer(rebasing: raw.assumingMemoryBound(to: UInt8.self)[..<count]))
                }
            }
        #endif
        var text = text
        return text.withUTF8(body)
    }
}
