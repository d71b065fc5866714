/// The specification's order checksum of a sequence of ids.
///
/// The sum of (position + 1) × id over the ids in order, modulo 2³², so it depends on both
/// the ids and their order.
func orderChecksum(_ ids: some Sequence<Int>) -> Int {
    var checksum = 0
    for (position, id) in ids.enumerated() {
        checksum = (checksum + (position + 1) * id) % (1 << 32)
    }
    return checksum
}
