import Synchronization

/// Whether a child process has exited, for callers that wait for it without blocking a
/// thread: the process's termination handler calls ``markExited()``.
///
///     let exit = ProcessExit()
///     process.terminationHandler = { _ in exit.markExited() }
///     await exit.wait()
final class ProcessExit: Sendable {
    private struct State {
        var hasExited = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Whether the process has exited (and been reaped).
    var hasExited: Bool { state.withLock { $0.hasExited } }

    /// Records the exit and resumes everyone waiting for it.
    func markExited() {
        let waiters = state.withLock { state in
            state.hasExited = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the process has exited.
    func wait() async {
        await withCheckedContinuation { continuation in
            let hasExited = state.withLock { state in
                if !state.hasExited { state.waiters.append(continuation) }
                return state.hasExited
            }
            if hasExited { continuation.resume() }
        }
    }
}
