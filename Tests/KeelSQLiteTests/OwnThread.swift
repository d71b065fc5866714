import Foundation

/// Runs blocking work, such as reading a child process's output until it exits, on a
/// thread of its own: a test that blocked one of the cooperative pool's threads (two on a
/// 2-core machine) would stall every other test meanwhile.
///
/// ```swift
/// let output = try await onOwnThread { try readUntilExit(process) }
/// ```
func onOwnThread<Output: Sendable>(_ work: @escaping @Sendable () throws -> Output) async throws -> Output {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
