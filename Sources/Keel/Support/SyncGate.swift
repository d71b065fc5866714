/// Lets one operation at a time through, in arrival order.
///
/// Saves of one model go through it, so a second save of a new model waits for the first
/// one's create and then updates, instead of sending a second POST (Backbone issue #345).
final class SyncGate {
    private var isBusy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Waits until every operation that entered earlier has left.
    func enter() async {
        guard isBusy else {
            isBusy = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Lets the next waiting operation through.
    func leave() {
        if waiters.isEmpty {
            isBusy = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}
