/// MurmurHash3's 64-bit finalizer: every input bit reaches every output bit, so that keys a
/// bit apart (consecutive ids, ids a byte apart) spread over the low bits a hash table's
/// buckets take.
///
/// Keel's hand-rolled tables (`RecordKey`'s integer ids, `JSONAPIResourceIndex`) mix
/// their words into one and finish with this instead of `Hasher`'s SipHash rounds.
enum MurmurFinalizer {
    /// The finalizer applied to `bits`.
    @inline(__always)
    static func mix(_ bits: UInt64) -> Int {
        var bits = bits
        bits ^= bits >> 33
        bits &*= 0xFF51_AFD7_ED55_8CCD
        bits ^= bits >> 33
        bits &*= 0xC4CE_B9FE_1A85_EC53
        bits ^= bits >> 33
        return Int(truncatingIfNeeded: bits)
    }
}
