extension Collection {
    /// Saves several models, at most `maxConcurrent` at a time, and reports each one's outcome
    /// and the progress; one failure does not stop the others.
    ///
    /// By default it saves the models that are new or have unsaved changes. Each save is the
    /// model's own `save`, with its events and validation. The batch is
    /// ``performAll(_:_:options:maxConcurrent:progress:isolation:)`` with ``BatchOperation/save``;
    /// concurrency, progress order and cancellation are described there.
    ///
    /// ```swift
    /// let outcomes = await notes.saveAll(maxConcurrent: 2) { progress in print(progress.fractionCompleted) }
    /// let failed = outcomes.filter { $0.error != nil }.map(\.model)
    /// ```
    ///
    /// - Parameters:
    ///   - models: The models to save; `nil` for the new and changed models of the collection.
    ///   - options: The options of every save (`patch`, `wait`, headers, …).
    ///   - maxConcurrent: How many saves may be in flight at once (at least 1).
    ///   - progress: Called once per model, as it finishes.
    ///   - isolation: The caller's actor, where the models live; passed implicitly.
    /// - Returns: One outcome per model, in the order of the models.
    /// - Precondition: `maxConcurrent` is at least 1.
    public func saveAll(
        _ models: [M]? = nil,
        options: SyncOptions = SyncOptions(),
        maxConcurrent: Int = 4,
        progress: ((BatchProgress) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async -> [BatchResult<M>] {
        await performAll(.save, models, options: options, maxConcurrent: maxConcurrent, progress: progress)
    }

    /// Fetches, saves or destroys several models, at most `maxConcurrent` at a time, and reports
    /// each one's outcome and the progress; one failure does not stop the others (RestKit's
    /// batch of object request operations).
    ///
    /// Each operation is the model's own `fetch`, `save` or `destroy`, with the same events,
    /// validation and server answer applied as a single call, so a failed save has the
    /// server's errors in its ``Model/validationError`` and a destroyed model leaves its
    /// collections. Without `models`, the operation chooses: the models with an id for
    /// ``BatchOperation/fetch``, the new and changed ones for ``BatchOperation/save``, every
    /// model for ``BatchOperation/destroy``.
    ///
    /// Models start in order, and at most `maxConcurrent` are in flight at once: the batch's
    /// tasks run on the caller's actor (where the models live) and overlap while they wait
    /// for the backend. Called outside any actor, the models cannot be shared with other
    /// tasks, so they run one at a time. `progress` is called on the caller's actor exactly
    /// once per model, in the order the models finish. Cancelling the calling task cancels
    /// the operations in flight; the models not started yet fail with
    /// ``SyncError/cancelled`` without a request and are reported in model order.
    ///
    /// ```swift
    /// let outcomes = await notes.performAll(.fetch, maxConcurrent: 4) { progress in
    ///     print("\(progress.completed)/\(progress.total)")
    /// }
    /// let missing = outcomes.filter { $0.error?.status == 404 }.map(\.model)
    /// ```
    ///
    /// - Parameters:
    ///   - operation: What to do to each model.
    ///   - models: The models; `nil` for the operation's default set, as above.
    ///   - options: The options of every operation (`wait`, `patch`, headers, a named route, …).
    ///   - maxConcurrent: How many operations may be in flight at once (at least 1).
    ///   - progress: Called once per model, as it finishes.
    ///   - isolation: The caller's actor, where the models live; passed implicitly.
    /// - Returns: One outcome per model, in the order of the models.
    /// - Precondition: `maxConcurrent` is at least 1.
    public func performAll(
        _ operation: BatchOperation,
        _ models: [M]? = nil,
        options: SyncOptions = SyncOptions(),
        maxConcurrent: Int = 4,
        progress: ((BatchProgress) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async -> [BatchResult<M>] {
        precondition(maxConcurrent >= 1, "maxConcurrent must be at least 1, not \(maxConcurrent)")
        let batch = models ?? defaultBatch(for: operation)
        var tally = BatchTally(total: batch.count, progress: progress)
        let jobs = batch.map { BatchJob(model: $0, operation: operation, options: options) }
        if let isolation, maxConcurrent > 1 {
            await withTaskGroup(of: (Int, Result<SyncResponse, SyncError>).self) { group in
                var next = 0
                func startNext() {
                    let index = next
                    let job = jobs[index]
                    next += 1
                    group.addTask { (index, await job.run(on: isolation)) }
                }
                while next < Swift.min(maxConcurrent, jobs.count) { startNext() }
                for await (index, result) in group {
                    tally.record(result, at: index)
                    guard next < jobs.count else { continue }
                    if Task.isCancelled {
                        while next < jobs.count {
                            tally.record(.failure(.cancelled), at: next)
                            next += 1
                        }
                    } else {
                        startNext()
                    }
                }
            }
        } else {
            for (index, job) in jobs.enumerated() {
                tally.record(await job.run(), at: index)
            }
        }
        return zip(batch, tally.results).map { BatchResult(model: $0, result: $1) }
    }

    private func defaultBatch(for operation: BatchOperation) -> [M] {
        switch operation {
        case .fetch: models.filter { !$0.isNew }
        case .save: models.filter { $0.isNew || $0.unsavedChanges != nil }
        case .destroy: models
        }
    }
}

/// The outcomes of a batch so far, reporting progress as each one arrives.
private struct BatchTally {
    private(set) var results: [Result<SyncResponse, SyncError>]
    private var completed = 0
    private var failed = 0
    private let progress: ((BatchProgress) -> Void)?

    init(total: Int, progress: ((BatchProgress) -> Void)?) {
        results = Array(repeating: .failure(.cancelled), count: total)
        self.progress = progress
    }

    mutating func record(_ result: Result<SyncResponse, SyncError>, at index: Int) {
        results[index] = result
        completed += 1
        if case .failure = result { failed += 1 }
        progress?(BatchProgress(completed: completed, failed: failed, total: results.count))
    }
}

/// One model's operation in a batch, handed to a child task that runs it back on the actor
/// the batch was called from.
///
/// Models are not `Sendable`; the job is, unchecked, because its model is only touched inside
/// ``run(on:)``, which is isolated to the caller's actor: the same domain the model lives in.
private struct BatchJob<M: Model>: @unchecked Sendable {
    let model: M
    let operation: BatchOperation
    let options: SyncOptions

    func run(on actor: isolated any Actor) async -> Result<SyncResponse, SyncError> {
        await run()
    }

    /// Runs the operation on the caller's isolation; a cancelled task sends nothing.
    func run() async -> Result<SyncResponse, SyncError> {
        if Task.isCancelled { return .failure(.cancelled) }
        do throws(SyncError) {
            switch operation {
            case .fetch: return .success(try await model.fetch(options: options))
            case .save: return .success(try await model.save(options: options))
            case .destroy: return .success(try await model.destroy(options: options) ?? SyncResponse(status: 204))
            }
        } catch {
            return .failure(error)
        }
    }
}
