import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The tasks a ``CrossOriginRedirectGuard`` runs for its session: each one's progress
/// handler, the answer received so far, its size limit, the task while it runs, and the continuation
/// that waits for it.
///
/// `URLSession` on Linux reports progress and hands out an answer piece by piece only to the
/// session's delegate, and only for tasks without a completion handler (a per-task delegate
/// is never called there), so the session's delegate collects the answer of such tasks
/// itself: that is what lets it report an upload's progress and stop reading an answer
/// past its limit.
///
/// A task ends once, with whichever comes first: its answer or error from the session, its
/// deadline, or its caller's cancellation. Each of them resumes the caller from the thread
/// it arrives on, without waiting for a Swift task to be scheduled, so an answer that
/// arrived before the deadline is never reported as a timeout however busy the process's
/// tasks are; a deadline or cancellation then cancels the `URLSessionTask` without waiting
/// for it.
final class SessionTasks: Sendable {
    private struct Entry {
        var progress: @Sendable (UploadProgress) -> Void
        var totalBytes: Int64
        var bytesReported: Int64 = -1
        var received = Data()
        var limit: ResponseSizeLimit
        var isOverLimit = false
        /// The task while it runs: the deadline's timer holds this, not the task itself.
        var running: Lock<URLSessionTask?>
        var continuation: CheckedContinuation<(Data, URLResponse), any Error>
    }

    private let entries = Lock<[ObjectIdentifier: Entry]>([:])

    /// Sends the request (with the file as its body, if any) and returns the answer;
    /// cancelling the calling task cancels it.
    ///
    /// - Parameter timeLimit: The time the whole exchange may take, or `nil` for none.
    /// - Throws: `URLError(.timedOut)` at the time limit; `URLError(.cancelled)` when the
    ///   calling task is cancelled; `URLError(.dataLengthExceedsMaximum)` once the answer is
    ///   over `limit`; `URLError` when no answer arrives.
    func run(
        _ request: URLRequest,
        body file: URL?,
        totalBytes: Int64,
        limit: ResponseSizeLimit,
        timeLimit: Duration?,
        in session: URLSession,
        progress: @escaping @Sendable (UploadProgress) -> Void
    ) async throws -> (Data, URLResponse) {
        let running = Lock<URLSessionTask?>(nil)
        let end: @Sendable (URLError) -> Void = { [self] error in
            guard let task = running.withLock({ $0 }), finish(ObjectIdentifier(task), with: error) else { return }
            task.cancel()
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = Self.task(sending: file, of: totalBytes, with: request, in: session)
                entries.withLock {
                    $0[ObjectIdentifier(task)] = Entry(
                        progress: progress,
                        totalBytes: totalBytes,
                        limit: limit,
                        running: running,
                        continuation: continuation
                    )
                }
                running.withLock { $0 = task }
                if Task.isCancelled {
                    end(URLError(.cancelled))
                    return
                }
                if let timeLimit {
                    DispatchQueue.global().asyncAfter(deadline: .now() + Self.interval(timeLimit)) {
                        end(URLError(.timedOut))
                    }
                }
                task.resume()
            }
        } onCancel: {
            end(URLError(.cancelled))
        }
    }

    /// Resumes the caller of a task that has not ended yet with `error`; `false` when the
    /// task had ended.
    private func finish(_ key: ObjectIdentifier, with error: URLError) -> Bool {
        guard let entry = entries.withLock({ $0.removeValue(forKey: key) }) else { return false }
        entry.running.withLock { $0 = nil }
        entry.continuation.resume(throwing: error)
        return true
    }

    private static func interval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !nanoseconds.overflow else { return .never }
        return .nanoseconds(Int(clamping: nanoseconds.partialValue + attoseconds / 1_000_000_000))
    }

    /// A task that sends `request`, with `file` as its body if there is one.
    ///
    /// On Linux the file is read through an `InputStream`, with its `Content-Length` set and
    /// chunked transfer coding switched off: swift-corelibs-foundation reads a `fromFile:`
    /// body asynchronously and resumes the transfer when a chunk arrives, which crashes the
    /// process (a `try!` on libcurl's "bad function argument") when the chunk arrives after
    /// the task was cancelled. It sends a stream of unknown length chunked, and would send
    /// the `Content-Length` beside it, a request that RFC 9112 forbids and strict servers
    /// (gunicorn) refuse with 400; a `Transfer-Encoding` header of blank value makes libcurl
    /// send neither the header nor chunks, so the body goes as the `Content-Length` says.
    private static func task(
        sending file: URL?,
        of totalBytes: Int64,
        with request: URLRequest,
        in session: URLSession
    ) -> URLSessionTask {
        guard let file else { return session.dataTask(with: request) }
        #if canImport(FoundationNetworking)
            var streamed = request
            streamed.httpBodyStream = InputStream(url: file)
            streamed.setValue(String(totalBytes), forHTTPHeaderField: "Content-Length")
            streamed.setValue(" ", forHTTPHeaderField: "Transfer-Encoding")
            return session.dataTask(with: streamed)
        #else
            return session.uploadTask(with: request, fromFile: file)
        #endif
    }

    /// Reports the bytes sent of an upload this registry runs.
    func didSend(_ task: URLSessionTask, totalBytesSent: Int64, expected: Int64) {
        let report: (@Sendable (UploadProgress) -> Void, UploadProgress)? = entries.withLock { entries in
            let key = ObjectIdentifier(task)
            guard var entry = entries[key] else { return nil }
            let total = expected > 0 ? expected : entry.totalBytes
            entry.bytesReported = totalBytesSent
            entries[key] = entry
            return (entry.progress, UploadProgress(bytesSent: totalBytesSent, totalBytes: total))
        }
        if let (handler, progress) = report { handler(progress) }
    }

    /// Whether to go on reading an answer whose head arrived: not when its `Content-Length`
    /// is over the task's limit (the task is then cancelled).
    func shouldReceive(_ response: URLResponse, for task: URLSessionTask) -> Bool {
        let isOverLimit = entries.withLock { entries in
            let key = ObjectIdentifier(task)
            guard let entry = entries[key], entry.limit.isExceeded(by: response) else { return false }
            entries[key]?.isOverLimit = true
            return true
        }
        if isOverLimit { task.cancel() }
        return !isOverLimit
    }

    /// Collects part of an answer; cancels the task once the answer is over its limit.
    func didReceive(_ data: Data, for task: URLSessionTask) {
        let isOverLimit = entries.withLock { entries in
            let key = ObjectIdentifier(task)
            guard var entry = entries[key], !entry.isOverLimit else { return false }
            if entry.limit.isExceeded(byCount: entry.received.count + data.count) {
                entry.isOverLimit = true
                entry.received = Data()
            } else {
                entry.received.append(data)
            }
            entries[key] = entry
            return entry.isOverLimit
        }
        if isOverLimit { task.cancel() }
    }

    /// Ends a task: returns its answer (after reporting the whole body as sent, if that was
    /// not reported yet) or throws its error.
    func didComplete(_ task: URLSessionTask, error: (any Error)?) {
        guard let entry = entries.withLock({ $0.removeValue(forKey: ObjectIdentifier(task)) }) else { return }
        entry.running.withLock { $0 = nil }
        if entry.isOverLimit {
            entry.continuation.resume(throwing: ResponseSizeLimit.exceeded)
        } else if let error {
            entry.continuation.resume(throwing: error)
        } else if let response = task.response {
            if entry.bytesReported < entry.totalBytes {
                entry.progress(UploadProgress(bytesSent: entry.totalBytes, totalBytes: entry.totalBytes))
            }
            entry.continuation.resume(returning: (entry.received, response))
        } else {
            entry.continuation.resume(throwing: URLError(.badServerResponse))
        }
    }
}
