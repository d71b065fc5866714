/// What a collection's update runs inside, so that the models the update builds reach
/// their owner at once rather than one by one: a ``Store`` shows the models one fetch loads
/// to its live queries in one batch.
protocol UpdateBatching: AnyObject {
    /// Runs `body`, a collection's update of up to `count` records, and reports the models
    /// it built when it ends.
    func batchingHolds<Result>(expecting count: Int, _ body: () -> Result) -> Result
}
