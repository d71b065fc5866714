/// One step of `coll_remove`.
enum RemovalStep {
    /// Remove the last model.
    case pop
    /// Remove the first model.
    case shift
    /// Remove the model with this id.
    case remove(id: Int)
}

/// `coll_remove`'s 20,000 removals from the models with ids 0..<100,000, on both sides:
/// a `pop` at every step k with k % 10 == 0, a `shift` where k % 10 == 5, and otherwise
/// the removal of the next of 16,000 distinct ids drawn from 2,000..<98,000 (which the
/// 2,000 pops and 2,000 shifts never reach) by a partial Fisher–Yates shuffle with the LCG
/// seeded 42: for i in 0..<16,000, swap position i with i + next() % (96,000 − i).
func removalPlan() -> [RemovalStep] {
    var ids = Array(2_000..<98_000)
    var random = ParkMiller(seed: 42)
    for i in 0..<16_000 {
        ids.swapAt(i, i + random.next() % (ids.count - i))
    }
    var victims = ids[0..<16_000].makeIterator()
    return (0..<20_000).map { step in
        switch step % 10 {
        case 0: return .pop
        case 5: return .shift
        default: return .remove(id: victims.next() ?? -1)
        }
    }
}
