import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The uploads a ``CrossOriginRedirectGuard`` runs for its session: each one's progress
/// handler, the answer received so far, and the continuation that waits for it.
///
/// `URLSession` on Linux reports progress only to the session's delegate, and only for
/// tasks without a completion handler (a per-task delegate is never called there), so the
/// session's delegate collects the answer of such tasks itself.
final class UploadTasks: Sendable {
    private struct Upload {
        var progress: @Sendable (UploadProgress) -> Void
        var totalBytes: Int64
        var bytesReported: Int64 = -1
        var received = Data()
        var continuation: CheckedContinuation<(Data, URLResponse), any Error>
    }

    private let uploads = Lock<[ObjectIdentifier: Upload]>([:])

    /// Uploads the file as the request's body; cancelling the calling task cancels it.
    func run(
        _ request: URLRequest,
        fromFile file: URL,
        totalBytes: Int64,
        in session: URLSession,
        progress: @escaping @Sendable (UploadProgress) -> Void
    ) async throws -> (Data, URLResponse) {
        let started = Lock<(task: URLSessionTask?, isCancelled: Bool)>((nil, false))
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = Self.task(sending: file, of: totalBytes, with: request, in: session)
                uploads.withLock {
                    $0[ObjectIdentifier(task)] = Upload(
                        progress: progress,
                        totalBytes: totalBytes,
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

    /// A task that sends `file` as the body of `request`.
    ///
    /// On Linux the file is read through an `InputStream`, with its `Content-Length` set:
    /// swift-corelibs-foundation reads a `fromFile:` body asynchronously and resumes the
    /// transfer when a chunk arrives, which crashes the process (a `try!` on libcurl's
    /// "bad function argument") when the chunk arrives after the task was cancelled.
    private static func task(
        sending file: URL,
        of totalBytes: Int64,
        with request: URLRequest,
        in session: URLSession
    ) -> URLSessionTask {
        #if canImport(FoundationNetworking)
            var streamed = request
            streamed.httpBodyStream = InputStream(url: file)
            streamed.setValue(String(totalBytes), forHTTPHeaderField: "Content-Length")
            return session.dataTask(with: streamed)
        #else
            return session.uploadTask(with: request, fromFile: file)
        #endif
    }

    /// Reports the bytes sent of an upload this registry runs.
    func didSend(_ task: URLSessionTask, totalBytesSent: Int64, expected: Int64) {
        let report: (@Sendable (UploadProgress) -> Void, UploadProgress)? = uploads.withLock { uploads in
            let key = ObjectIdentifier(task)
            guard var upload = uploads[key] else { return nil }
            let total = expected > 0 ? expected : upload.totalBytes
            upload.bytesReported = totalBytesSent
            uploads[key] = upload
            return (upload.progress, UploadProgress(bytesSent: totalBytesSent, totalBytes: total))
        }
        if let (handler, progress) = report { handler(progress) }
    }

    /// Collects part of an upload's answer.
    func didReceive(_ data: Data, for task: URLSessionTask) {
        uploads.withLock { uploads in uploads[ObjectIdentifier(task)]?.received.append(data) }
    }

    /// Ends an upload: returns its answer (after reporting the whole body as sent, if that
    /// was not reported yet) or throws its error.
    func didComplete(_ task: URLSessionTask, error: (any Error)?) {
        guard let upload = uploads.withLock({ $0.removeValue(forKey: ObjectIdentifier(task)) }) else { return }
        if let error {
            upload.continuation.resume(throwing: error)
        } else if let response = task.response {
            if upload.bytesReported < upload.totalBytes {
                upload.progress(UploadProgress(bytesSent: upload.totalBytes, totalBytes: upload.totalBytes))
            }
            upload.continuation.resume(returning: (upload.received, response))
        } else {
            upload.continuation.resume(throwing: URLError(.badServerResponse))
        }
    }
}
