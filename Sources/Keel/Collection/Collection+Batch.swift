/// The outcome of one model in ``Collection/saveAll(_:options:progress:)``.
///
/// ```swift
/// for outcome in await notes.saveAll() where outcome.error != nil { print(outcome.model.cid) }
/// ```
public struct BatchResult<M: Model> {
    /// The model that was saved.
    public let model: M
    /// The backend's response, or why the save failed.
    public let result: Result<SyncResponse, SyncError>

    /// The failure, if the save failed.
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

extension Collection {
    /// Saves several models one after another and reports each one's outcome and the
    /// progress; one failure does not stop the others.
    ///
    /// By default it saves the models that are new or have unsaved changes. Each save is the
    /// model's own `save`, with its events and validation. Cancelling the calling task
    /// cancels the save in flight, and the rest fail with ``SyncError/cancelled`` without a
    /// request.
    ///
    /// ```swift
    /// let outcomes = await notes.saveAll { progress in print(progress.fractionCompleted) }
    /// let failed = outcomes.filter { $0.error != nil }.map(\.model)
    /// ```
    ///
    /// - Parameters:
    ///   - models: The models to save; `nil` for the new and changed models of the collection.
    ///   - options: The options of every save (`patch`, `wait`, headers, …).
    ///   - progress: Called after each model.
    /// - Returns: One outcome per model, in the order of the models.
    public func saveAll(
        _ models: [M]? = nil,
        options: SyncOptions = SyncOptions(),
        progress: ((BatchProgress) -> Void)? = nil
    ) async -> [BatchResult<M>] {
        let batch = models ?? self.models.filter { $0.isNew || $0.unsavedChanges != nil }
        var results: [BatchResult<M>] = []
        results.reserveCapacity(batch.count)
        var failed = 0
        for model in batch {
            let result = await Self.save(model, options: options)
            if case .failure = result { failed += 1 }
            results.append(BatchResult(model: model, result: result))
            progress?(BatchProgress(completed: results.count, failed: failed, total: batch.count))
        }
        return results
    }

    private static func save(_ model: M, options: SyncOptions) async -> Result<SyncResponse, SyncError> {
        do throws(SyncError) {
            return .success(try await model.save(options: options))
        } catch {
            return .failure(error)
        }
    }
}
