import Synchronization

/// The same-work floors' client ids: one process-wide counter, as Keel's `cid` (and
/// Backbone's `_.uniqueId`).
///
/// A model has a client id from birth (`model.cid`), and a collection finds a model by it
/// (`get(cid)`), so a same-work floor's record takes the next number of one counter. The
/// counter is atomic, as records may be made on any thread (Keel's models are made on any
/// actor, and Swift 6 allows no unsynchronized global).
enum ClientIDs {
    /// The last number handed out.
    private static let last = Atomic<Int>(0)

    /// The next client id.
    @inline(__always)
    static func next() -> Int {
        last.wrappingAdd(1, ordering: .relaxed).newValue
    }
}
