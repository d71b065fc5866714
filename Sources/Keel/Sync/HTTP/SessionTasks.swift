import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The tasks a ``CrossOriginRedirectGuard`` runs for its session: each one's progress
/// handler, the answer received so far, its size limit, and the continuation that waits for
/// it.
///
/// `URLSession` on Linux reports progress and hands out an answer piece by piece only to the
/// session's delegate, and only for tasks without a completion handler (a per-task delegate
/// is never called there), so the session's delegate collects the answer of such tasks
/// itself: that is what lets it report an upload's progress and stop reading an answer
/// past its limit.
final class SessionTasks: Sendable {
    private struct Entry {
        var progress: @Sendable (UploadProgress) -> Void
        var totalBytes: Int64
        var bytesReported: Int64 = -1
        var received = Data()
        var limit: ResponseSizeLimit
        var isOverLimit = false
        var continuation: CheckedContinuation<(Data, URLResponse), any Error>
    }

    private let entries = Lock<[ObjectIdentifier: Entry]>([:])

    /// Sends the request (with the file as its body, if any) and returns the answer;
    /// cancelling the calling task cancels it.
    ///
    /// - Throws: `URLError(.dataLengthExceedsMaximum)` once the answer is over `limit`;
    ///   `URLError` when no answer arrives.
    func run(
        _ request: URLRequest,
        body file: URL?,
        totalBytes: Int64,
        limit: ResponseSizeLimit,
        in session: URLSession,
        progress: @escaping @Sendable (UploadProgress) -> Void
    ) async throws -> (Data, URLResponse) {
        let started = Lock<(task: URLSessionTask?, isCancelled: Bool)>((nil, false))
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = Self.task(sending: file, of: totalBytes, with: request, in: session)
                entries.withLock {
                    $0[ObjectIdentifier(task)] = Entry(
                        progress: progress,
                        totalBytes: totalBytes,
                        limit: limit,
                        continuation: continuation
                    )
                }
                let isCancelled = started.withLock { state in
                    state.task = task
                    return state.isCancelled
                }
                task.resume()
                if isCancelled { task.cancel() }
            }
        } onCancel: {
            let task = started.withLock { state in
                state.isCancelled = true
                return state.task
            }
            task?.cancel()
        }
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
