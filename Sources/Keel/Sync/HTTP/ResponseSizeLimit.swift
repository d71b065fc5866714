import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The largest response body a transport accepts, and the checks that apply it: the
/// `Content-Length` first, then the bytes as they arrive.
struct ResponseSizeLimit: Sendable {
    /// The limit, in bytes.
    let bytes: Int

    init(_ bytes: Int) {
        self.bytes = max(0, bytes)
    }

    /// The error a transport throws for a body over the limit.
    static let exceeded = URLError(.dataLengthExceedsMaximum)

    /// Whether the response's `Content-Length` already says its body is over the limit.
    func isExceeded(by response: URLResponse) -> Bool {
        response.expectedContentLength > Int64(bytes)
    }

    /// Whether `count` bytes are over the limit.
    func isExceeded(byCount count: Int) -> Bool {
        count > bytes
    }

    /// The answer, unless its `Content-Length` or its body is over the limit.
    ///
    /// - Throws: ``exceeded``.
    func check(_ answer: (Data, URLResponse)) throws -> (Data, URLResponse) {
        if isExceeded(by: answer.1) || isExceeded(byCount: answer.0.count) { throw Self.exceeded }
        return answer
    }
}
