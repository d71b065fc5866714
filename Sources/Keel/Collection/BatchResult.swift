/// The outcome of one model in a batch (``Collection/performAll(_:_:options:maxConcurrent:progress:isolation:)``,
/// ``Collection/saveAll(_:options:maxConcurrent:progress:isolation:)``).
///
/// ```swift
/// for outcome in await notes.saveAll() where outcome.error != nil { print(outcome.model.cid) }
/// ```
public struct BatchResult<M: Model> {
    /// The model the operation ran on.
    public let model: M
    /// The backend's response, or why the operation failed.
    ///
    /// Destroying a new model sends nothing and succeeds with an empty 204 response.
    public let result: Result<SyncResponse, SyncError>

    /// The failure, if the operation failed.
    ///
    /// ```swift
    /// let failed = outcomes.filter { $0.error != nil }
    /// ```
    public var error: SyncError? {
        if case .failure(let error) = result { return error }
        return nil
    }
}

/// How far a batch has got: reported after each model.
///
/// ```swift
/// await notes.saveAll { progress in print("\(progress.completed)/\(progress.total)") }
/// ```
public struct BatchProgress: Sendable, Hashable {
    /// The models done so far, saved or failed.
    public let completed: Int
    /// The models that failed so far.
    public let failed: Int
    /// The models in the batch.
    public let total: Int

    /// Creates a progress report.
    ///
    /// ```swift
    /// let halfway = BatchProgress(completed: 2, failed: 0, total: 4)
    /// ```
    public init(completed: Int, failed: Int, total: Int) {
        self.completed = completed
        self.failed = failed
        self.total = total
    }

    /// The share done, from 0 to 1.
    public var fractionCompleted: Double { total == 0 ? 1 : Double(completed) / Double(total) }
}
