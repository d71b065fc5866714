/// How much of a request body has been sent: what ``SyncOptions/onUploadProgress`` receives.
///
/// ```swift
/// var options = SyncOptions()
/// options.onUploadProgress = { progress in
///     print("\(progress.bytesSent) of \(progress.totalBytes) bytes", progress.fractionCompleted)
/// }
/// ```
public struct UploadProgress: Sendable, Hashable {
    /// The bytes of the body sent so far.
    public var bytesSent: Int64
    /// The size of the whole body, multipart envelope included.
    public var totalBytes: Int64

    /// Creates a progress value.
    ///
    /// ```swift
    /// let half = UploadProgress(bytesSent: 512, totalBytes: 1024)
    /// ```
    ///
    /// - Parameters:
    ///   - bytesSent: The bytes sent so far.
    ///   - totalBytes: The size of the whole body.
    public init(bytesSent: Int64, totalBytes: Int64) {
        self.bytesSent = bytesSent
        self.totalBytes = totalBytes
    }

    /// The share of the body sent, from 0 to 1 (1 for an empty body).
    ///
    /// ```swift
    /// UploadProgress(bytesSent: 512, totalBytes: 1024).fractionCompleted  // 0.5
    /// ```
    public var fractionCompleted: Double {
        guard totalBytes > 0 else { return 1 }
        return min(1, Double(bytesSent) / Double(totalBytes))
    }

    /// Whether the whole body has been sent.
    ///
    /// ```swift
    /// if progress.isFinished { print("waiting for the server") }
    /// ```
    public var isFinished: Bool { bytesSent >= totalBytes }
}

/// A progress handler that a ``SyncRequest`` can carry while staying `Hashable`: requests
/// are equal only when they share the same handler instance.
final class UploadProgressHandler: Sendable, Hashable {
    let report: @Sendable (UploadProgress) -> Void

    init(_ report: @escaping @Sendable (UploadProgress) -> Void) {
        self.report = report
    }

    static func == (lhs: UploadProgressHandler, rhs: UploadProgressHandler) -> Bool { lhs === rhs }

    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
