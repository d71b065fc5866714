/// Keeps the non-success responses that ``RESTSync`` turns into errors, headers included, for
/// the decorator that asked.
///
/// ``SyncError/httpStatus(_:body:)`` has no room for headers, yet a decorator needs them: a
/// 503's `Retry-After`, for instance. The decorator runs its base inside
/// ``FailedResponseRecorder/recording(_:)``; ``RESTSync`` records each failing response in the
/// recorder of the current task, and the decorator reads it back after catching the error. The
/// error contract stays as it is for every backend and decorator in between.
final class FailedResponseRecorder: Sendable {
    @TaskLocal static var current: FailedResponseRecorder?

    private let latest = Lock<SyncResponse?>(nil)

    /// Records a failing response in the current task's recorder, if there is one.
    static func record(_ response: SyncResponse) {
        current?.latest.withLock { $0 = response }
    }

    /// Runs `operation` with a fresh recorder and returns its outcome with the last failing
    /// response recorded meanwhile.
    static func recording(
        _ operation: () async throws(SyncError) -> SyncResponse
    ) async -> (result: Result<SyncResponse, SyncError>, failedResponse: SyncResponse?) {
        let recorder = FailedResponseRecorder()
        let result: Result<SyncResponse, SyncError> = await $current.withValue(recorder) {
            do throws(SyncError) {
                return .success(try await operation())
            } catch {
                return .failure(error)
            }
        }
        return (result, recorder.latest.withLock { $0 })
    }

    /// The headers of the recorded response that matches `error`'s status, or none.
    static func headers(of response: SyncResponse?, matching error: SyncError) -> [String: String] {
        guard let response, let status = error.status, response.status == status else { return [:] }
        return response.headers
    }
}
