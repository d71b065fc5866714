extension Sync {
    /// Sends a set of requests, at most `maxConcurrent` at a time, and reports each one's
    /// outcome and the progress; one failure does not stop the others (RestKit's batch of
    /// request operations).
    ///
    /// Requests start in order. Cancelling the calling task cancels the requests in flight,
    /// and the ones not started yet fail with ``SyncError/cancelled`` without being sent.
    /// For models, ``Collection/performAll(_:_:options:maxConcurrent:progress:isolation:)``
    /// runs each model's own `fetch`, `save` or `destroy`, with its events and validation.
    ///
    /// ```swift
    /// let api = RESTSync(baseURL: URL(string: "https://api.example.com")!)
    /// let reads = (1...20).map { SyncRequest(method: .read, url: URL(string: "/notes/\($0)")!) }
    /// let outcomes = await api.performAll(reads, maxConcurrent: 4) { progress in
    ///     print("\(progress.completed)/\(progress.total)")
    /// }
    /// let notes = outcomes.compactMap { try? $0.get().body }
    /// ```
    ///
    /// - Parameters:
    ///   - requests: The requests to send.
    ///   - maxConcurrent: How many requests may be in flight at once (at least 1).
    ///   - progress: Called after each request is answered, in the order they finish.
    /// - Returns: One outcome per request, in the order of `requests`.
    /// - Precondition: `maxConcurrent` is at least 1.
    public func performAll(
        _ requests: [SyncRequest],
        maxConcurrent: Int = 4,
        progress: ((BatchProgress) -> Void)? = nil
    ) async -> [Result<SyncResponse, SyncError>] {
        precondition(maxConcurrent >= 1, "maxConcurrent must be at least 1, not \(maxConcurrent)")
        var results = [Result<SyncResponse, SyncError>](repeating: .failure(.cancelled), count: requests.count)
        var completed = 0
        var failed = 0
        await withTaskGroup(of: (Int, Result<SyncResponse, SyncError>).self) { group in
            var next = 0
            func startNext() {
                let index = next
                let request = requests[index]
                next += 1
                group.addTask { (index, await self.outcome(of: request)) }
            }
            while next < min(maxConcurrent, requests.count) { startNext() }
            for await (index, result) in group {
                results[index] = result
                completed += 1
                if case .failure = result { failed += 1 }
                progress?(BatchProgress(completed: completed, failed: failed, total: requests.count))
                guard next < requests.count else { continue }
                if Task.isCancelled {
                    completed += requests.count - next
                    failed += requests.count - next
                    next = requests.count
                    progress?(BatchProgress(completed: completed, failed: failed, total: requests.count))
                } else {
                    startNext()
                }
            }
        }
        return results
    }

    private func outcome(of request: SyncRequest) async -> Result<SyncResponse, SyncError> {
        do throws(SyncError) {
            return .success(try await perform(request))
        } catch {
            return .failure(error)
        }
    }
}
