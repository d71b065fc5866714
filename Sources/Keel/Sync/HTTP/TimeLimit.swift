import Foundation

/// Runs an exchange under a time limit that Keel keeps itself.
///
/// The caller gets the answer, or `URLError(.timedOut)` once the limit has passed, or
/// `CancellationError` when its task is cancelled, whichever comes first; the exchange is
/// then cancelled, but not waited for. A transport that is slow to acknowledge the
/// cancellation, or never does, cannot hold the caller past its limit.
enum TimeLimit {
    /// Runs `operation` in a task of its own and returns what it returns, unless `limit`
    /// passes first; without a limit, runs it as it is.
    ///
    /// - Throws: `URLError(.timedOut)` at the limit; `CancellationError` when the calling task
    ///   is cancelled; what `operation` throws.
    static func run<Output: Sendable>(
        within limit: Duration?,
        _ operation: @escaping @Sendable () async throws -> Output
    ) async throws -> Output {
        guard let limit else { return try await operation() }
        let race = Race<Output>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let work = Task {
                    do {
                        let output = try await operation()
                        race.finish(.success(output))
                    } catch {
                        race.finish(.failure(error))
                    }
                }
                let timer = Task {
                    try await Task.sleep(for: limit)
                    race.finish(.failure(URLError(.timedOut)))
                }
                race.start(continuation, cancelling: [{ work.cancel() }, { timer.cancel() }])
            }
        } onCancel: {
            race.finish(.failure(CancellationError()))
        }
    }

    /// The first of the answer, the limit and the caller's cancellation to arrive: it resumes
    /// the caller once and cancels both tasks.
    private final class Race<Output: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Output, any Error>?
            var cancellations: [@Sendable () -> Void] = []
            var outcome: Result<Output, any Error>?
        }

        private let state = Lock(State())

        /// Hands over the caller's continuation and what cancels the two tasks; an outcome
        /// that arrived before them resumes the caller at once.
        func start(
            _ continuation: CheckedContinuation<Output, any Error>,
            cancelling cancellations: [@Sendable () -> Void]
        ) {
            let early = state.withLock { state -> Result<Output, any Error>? in
                state.cancellations = cancellations
                guard let outcome = state.outcome else {
                    state.continuation = continuation
                    return nil
                }
                return outcome
            }
            guard let early else { return }
            for cancel in cancellations { cancel() }
            continuation.resume(with: early)
        }

        /// Records the outcome if it is the first; resumes the caller and cancels the tasks.
        func finish(_ outcome: Result<Output, any Error>) {
            let winner = state.withLock { state -> (CheckedContinuation<Output, any Error>?, [@Sendable () -> Void])? in
                guard state.outcome == nil else { return nil }
                state.outcome = outcome
                defer { state.continuation = nil }
                return (state.continuation, state.cancellations)
            }
            guard let (continuation, cancellations) = winner else { return }
            continuation?.resume(with: outcome)
            for cancel in cancellations { cancel() }
        }
    }
}
