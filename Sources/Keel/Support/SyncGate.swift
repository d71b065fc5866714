/// Lets one operation at a time through, in the order the operations were called.
///
/// Saves of one model go through it, so a second save of a new model waits for the first
/// one's create and then updates, instead of sending a second POST (Backbone issue #345).
final class SyncGate {
    // Not checked for exclusive access at run time: the gate is used from its model's calls
    // on one actor, and no access to these overlaps another.
    @exclusivity(unchecked) private var nextTicket = 0
    @exclusivity(unchecked) private var servingTicket = 0
    @exclusivity(unchecked) private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]

    /// Takes a place in line at once, lets tasks started before the call run up to their
    /// first suspension (`yieldToTasksStartedBefore`) unless the caller just did
    /// (`yieldingFirst: false`), then waits until every operation that entered earlier has
    /// left.
    ///
    /// The place is taken before the first suspension, so the order is the order of the
    /// calls, however the suspended callers are later resumed.
    func enter(yieldingFirst: Bool = true) async {
        let ticket = nextTicket
        nextTicket += 1
        if yieldingFirst { await yieldToTasksStartedBefore() }
        guard ticket != servingTicket else { return }
        await withCheckedContinuation { waiters[ticket] = $0 }
    }

    /// Lets the next operation in line through.
    func leave() {
        servingTicket += 1
        // Most operations leave with no one waiting: an empty table is not hashed into.
        guard !waiters.isEmpty else { return }
        waiters.removeValue(forKey: servingTicket)?.resume()
    }
}
