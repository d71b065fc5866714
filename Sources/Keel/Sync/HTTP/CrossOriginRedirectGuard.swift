public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A `URLSession` delegate that keeps credentials from following a redirect to another origin.
///
/// `URLSession` copies every header of a request onto the request it sends after a redirect,
/// on Linux even when the redirect leads to another host, so an `Authorization` header meant
/// for your API would reach whatever server a `Location` header names. When a redirect
/// changes the origin (scheme, host or port), this delegate sends the redirected request with
/// only the headers that describe the content: `Accept`, `Accept-Language`,
/// `Content-Language`, `Content-Type`, `User-Agent` and `X-HTTP-Method-Override`.
/// `Authorization`, `Cookie`, ``RESTSync/headers`` and a request's own headers are dropped.
/// Redirects within the origin keep every header.
///
/// ``RESTSync``'s default transport uses it. Give it to a session of your own to keep the
/// same guarantee:
///
/// ```swift
/// let session = URLSession(configuration: .default, delegate: CrossOriginRedirectGuard(), delegateQueue: nil)
/// let api = RESTSync(baseURL: URL(string: "https://api.example.com")!, transport: session)
/// ```
///
/// > Note: `URLSession` on Linux asks only the session's delegate about redirects, never a
/// > delegate passed to `data(for:delegate:)`, so the guard must be the session's delegate.
///
/// It also runs the session's requests that ``RESTSync`` sends
/// (``HTTPTransport/send(_:maximumResponseBytes:)``,
/// ``HTTPTransport/upload(_:fromFile:maximumResponseBytes:progress:)``): it reports their
/// upload progress and collects their answers, which `URLSession` on Linux gives to the
/// session's delegate only, and stops reading an answer once it is over its size limit.
public final class CrossOriginRedirectGuard: NSObject, URLSessionDataDelegate, Sendable {
    /// The headers a redirected request keeps when it goes to another origin, lowercased.
    static let headersKeptAcrossOrigins: Set<String> = [
        "accept", "accept-language", "content-language", "content-type", "user-agent", "x-http-method-override",
    ]

    /// Creates the delegate.
    ///
    /// ```swift
    /// let session = URLSession(configuration: .ephemeral, delegate: CrossOriginRedirectGuard(), delegateQueue: nil)
    /// ```
    override public init() {}

    /// The tasks this delegate runs.
    let tasks = SessionTasks()

    /// Follows the redirect, without credentials or custom headers when it changes the origin.
    ///
    /// ```swift
    /// // Called by URLSession for a 3xx answer with a Location header.
    /// ```
    ///
    /// - Parameters:
    ///   - session: The session of the task.
    ///   - task: The task being redirected.
    ///   - response: The redirect response.
    ///   - request: The request `URLSession` would send next.
    ///   - completionHandler: Receives the request to send.
    public func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        if Self.dropsBodiesOnRedirect, response.statusCode == 307 || response.statusCode == 308,
            task.originalRequest?.httpBody != nil || task.originalRequest?.httpBodyStream != nil
                || task is URLSessionUploadTask
        {
            // RESTSync follows it itself, with the body (see bodyKeepingRedirect(of:answeredWith:)).
            completionHandler(nil)
            return
        }
        completionHandler(Self.redirected(request, from: response.url ?? task.currentRequest?.url))
    }

    /// Reports the progress of an upload.
    ///
    /// ```swift
    /// // Called by URLSession as it sends a request body.
    /// ```
    ///
    /// - Parameters:
    ///   - session: The session of the task.
    ///   - task: The uploading task.
    ///   - bytesSent: The bytes sent since the last call.
    ///   - totalBytesSent: The bytes sent so far.
    ///   - totalBytesExpectedToSend: The size of the body.
    public func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        tasks.didSend(task, totalBytesSent: totalBytesSent, expected: totalBytesExpectedToSend)
    }

    /// Cancels a task whose answer's `Content-Length` is over its size limit.
    ///
    /// ```swift
    /// // Called by URLSession when the head of an answer arrives.
    /// ```
    ///
    /// - Parameters:
    ///   - session: The session of the task.
    ///   - dataTask: The task.
    ///   - response: The head of the answer.
    ///   - completionHandler: Receives whether to go on.
    public func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        completionHandler(tasks.shouldReceive(response, for: dataTask) ? .allow : .cancel)
    }

    /// Collects part of an answer.
    ///
    /// ```swift
    /// // Called by URLSession as an answer arrives.
    /// ```
    ///
    /// - Parameters:
    ///   - session: The session of the task.
    ///   - dataTask: The task.
    ///   - data: The bytes received.
    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        tasks.didReceive(data, for: dataTask)
    }

    /// Ends a task with its answer or its error.
    ///
    /// ```swift
    /// // Called by URLSession when a task ends.
    /// ```
    ///
    /// - Parameters:
    ///   - session: The session of the task.
    ///   - task: The task.
    ///   - error: Why it failed, or `nil`.
    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        tasks.didComplete(task, error: error)
    }

    /// The request to send after a redirect from `source`: as it is within one origin,
    /// otherwise with only ``headersKeptAcrossOrigins``.
    /// Whether this platform's `URLSession` sends the request of a 307 or 308 redirect
    /// without its body: swift-corelibs-foundation does, though these redirects keep the
    /// method and the body (RFC 9110, 15.4.8 and 15.4.9).
    #if canImport(FoundationNetworking)
        static let dropsBodiesOnRedirect = true
    #else
        static let dropsBodiesOnRedirect = false
    #endif

    /// The request to send next when `response` is a 307 or 308 redirect that this guard
    /// left to the caller: `request` with the same method and body at the `Location`, without
    /// the credentials a cross-origin hop must not carry; `nil` for any other answer.
    static func bodyKeepingRedirect(of request: URLRequest, answeredWith response: URLResponse) -> URLRequest? {
        guard dropsBodiesOnRedirect, let http = response as? HTTPURLResponse,
            http.statusCode == 307 || http.statusCode == 308,
            let location = http.value(forHTTPHeaderField: "Location"),
            let target = URL(string: location, relativeTo: request.url)?.absoluteURL
        else { return nil }
        var next = request
        next.url = target
        return redirected(next, from: request.url)
    }

    static func redirected(_ request: URLRequest, from source: URL?) -> URLRequest {
        if HTTPOrigin.same(source, request.url) { return request }
        var stripped = request
        for name in (request.allHTTPHeaderFields ?? [:]).keys
        where !headersKeptAcrossOrigins.contains(name.lowercased()) {
            stripped.setValue(nil, forHTTPHeaderField: name)
        }
        return stripped
    }
}
