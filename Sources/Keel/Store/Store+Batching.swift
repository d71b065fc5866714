extension Store: UpdateBatching {
    /// Runs `body` and shows the live queries the models it made the store hold only when
    /// it ends, one batch per class: a fetch of *k* records places them in each query in
    /// one pass, with one notification, instead of *k* moves.
    ///
    /// The models are held (and their changes followed) at once; only the queries wait. A
    /// model that changes in the meantime enters its queries then, as a held model does,
    /// and one destroyed in the meantime never enters them. Batches nest: the outermost
    /// one shows its models.
    ///
    /// The identity map makes room for `count` more records first, so that a fetch's
    /// models do not grow its table step by step.
    func batchingHolds<Result>(expecting count: Int, _ body: () -> Result) -> Result {
        identityMap.reserveCapacity(adding: count)
        holdBatchDepth += 1
        let result = body()
        holdBatchDepth -= 1
        if holdBatchDepth == 0 {
            let classes = batchedClasses
            batchedClasses = []
            for stored in classes { stored.showBatch() }
        }
        return result
    }
}
