public import Foundation

/// A decorator that sends a failed request again, waiting longer each time, when the failure
/// is one that may pass: a transport error, a timeout, or a `503 Service Unavailable` or
/// `429 Too Many Requests` answer.
///
/// Only requests that are safe to repeat are retried: `read` (GET), `update` (PUT) and
/// `delete` (DELETE). A `create` (POST) or `patch` (PATCH) could be applied twice, so it is sent
/// once, unless the call opts in with ``retryContextKey`` in its context (for instance
/// because the server deduplicates by an idempotency key). The same key set to `false` turns
/// retries off for one call.
///
/// ```swift
/// let api = RetryingSync(RESTSync(baseURL: URL(string: "https://api.example.com")!), maxAttempts: 4)
/// let notes = Collection<Note>(url: "/notes", sync: api)
/// try await notes.fetch()          // retried on 503, 429, timeouts and transport errors
///
/// var options = SyncOptions()
/// options.custom[RetryingSync.retryContextKey] = true
/// try await note.save(options: options)   // a POST, retried because the call opts in
/// ```
///
/// ### Delays
///
/// Before attempt *n* + 1 it waits ``baseDelay`` × 2^(*n* − 1), at most ``maxDelay``, scaled by
/// a random factor between 0.5 and 1 (jitter), so that many clients failing together do not
/// come back together. A `Retry-After` header on the answer (seconds, or an HTTP date) sets the
/// delay instead, capped at ``maxDelay``. Cancelling the calling task ends the wait at once
/// with ``SyncError/cancelled``.
///
/// After the last attempt the last error is thrown; every other error (a 404, a validation
/// error) is thrown at once.
public struct RetryingSync: SyncDecorator {
    /// The context key of a per-call choice: `true` retries any method, `false` none.
    ///
    /// ```swift
    /// options.custom[RetryingSync.retryContextKey] = false   // this fetch is sent once
    /// ```
    public static let retryContextKey = "retry"

    /// The backend that sends the requests.
    public var base: any Sync
    /// How many times a request is sent at most, the first included (at least 1).
    public var maxAttempts: Int
    /// The delay before the first retry, before jitter; it doubles with each retry.
    public var baseDelay: Duration
    /// The longest wait between attempts, for backoff and `Retry-After` alike.
    public var maxDelay: Duration
    /// The HTTP statuses worth retrying.
    public var retryableStatuses: Set<Int>

    private let sleep: @Sendable (Duration) async throws -> Void
    private let jitter: @Sendable () -> Double
    private let now: @Sendable () -> Date

    /// Creates a retrying decorator.
    ///
    /// ```swift
    /// let api = RetryingSync(rest, maxAttempts: 5, baseDelay: .milliseconds(100), maxDelay: .seconds(5))
    /// ```
    ///
    /// - Parameters:
    ///   - base: The backend that sends the requests.
    ///   - maxAttempts: How many times a request is sent at most, the first included.
    ///   - baseDelay: The delay before the first retry, before jitter.
    ///   - maxDelay: The longest wait between attempts.
    ///   - retryableStatuses: The HTTP statuses worth retrying.
    ///   - sleep: Waits for a duration and throws when the task is cancelled; tests pass one
    ///     that records the delay and returns at once.
    ///   - jitter: A factor between 0.5 and 1 that scales each backoff delay.
    ///   - now: The current time, for a `Retry-After` date.
    public init(
        _ base: any Sync,
        maxAttempts: Int = 3,
        baseDelay: Duration = .milliseconds(250),
        maxDelay: Duration = .seconds(30),
        retryableStatuses: Set<Int> = [429, 503],
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0.5...1) },
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.base = base
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.retryableStatuses = retryableStatuses
        self.sleep = sleep
        self.jitter = jitter
        self.now = now
    }

    /// Sends the request, and again after a delay while it fails in a way worth retrying.
    ///
    /// ```swift
    /// let response = try await api.perform(SyncRequest(method: .read, url: URL(string: "/notes")!))
    /// ```
    ///
    /// - Parameter request: The operation.
    /// - Returns: The first successful response.
    /// - Throws: The last ``SyncError``, or ``SyncError/cancelled`` when the task is cancelled
    ///   while waiting.
    public func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        let attempts = mayRetry(request) ? maxAttempts : 1
        var attempt = 1
        while true {
            if Task.isCancelled { throw .cancelled }
            let base = self.base
            let (result, failedResponse) = await FailedResponseRecorder.recording { () throws(SyncError) in
                try await base.perform(request)
            }
            let error: SyncError
            switch result {
            case .success(let response): return response
            case .failure(let failure): error = failure
            }
            guard attempt < attempts, isRetryable(error) else { throw error }
            let headers = FailedResponseRecorder.headers(of: failedResponse, matching: error)
            do {
                try await sleep(delay(beforeRetry: attempt, retryAfter: headers["retry-after"]))
            } catch {
                throw .cancelled
            }
            attempt += 1
        }
    }

    // MARK: - Policy

    /// Whether the request may be sent more than once: by its method, or by the call's choice.
    private func mayRetry(_ request: SyncRequest) -> Bool {
        if let choice = request.context[Self.retryContextKey]?.boolValue { return choice }
        return [.read, .update, .delete].contains(request.method)
    }

    private func isRetryable(_ error: SyncError) -> Bool {
        switch error {
        case .transport, .timedOut: return true
        case .httpStatus(let status, _): return retryableStatuses.contains(status)
        default: return false
        }
    }

    /// The wait after the `retry`-th failed attempt: the server's `Retry-After`, or the
    /// exponential backoff with jitter; at most ``maxDelay`` either way.
    func delay(beforeRetry retry: Int, retryAfter: String?) -> Duration {
        if let retryAfter, let asked = Self.duration(ofRetryAfter: retryAfter, now: now()) {
            return min(asked, maxDelay)
        }
        let doubling = Double(1 << min(retry - 1, 30))
        let backoff = min(baseDelay * doubling, maxDelay)
        return backoff * min(max(jitter(), 0), 1)
    }

    /// A `Retry-After` value as a duration: delay-seconds (`120`) or an HTTP date
    /// (`Wed, 21 Oct 2026 07:28:00 GMT`, zero when past); `nil` when it is neither.
    static func duration(ofRetryAfter value: String, now: Date) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text) { return seconds >= 0 ? .seconds(seconds) : nil }
        guard let date = HTTPDate.parse(text) else { return nil }
        return .milliseconds(Int64(max(0, date.timeIntervalSince(now)) * 1000))
    }
}
