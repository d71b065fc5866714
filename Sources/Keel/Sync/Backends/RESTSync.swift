public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A backend that talks JSON to a REST server over HTTP.
///
/// It maps Backbone's methods to HTTP verbs (create→POST, read→GET, update→PUT,
/// patch→PATCH, delete→DELETE), resolves relative URLs against ``baseURL``, sends JSON
/// bodies, and turns every failure into a ``SyncError``: transport errors, timeouts,
/// cancellation, non-2xx statuses (with the body, JSON or not), undecodable bodies, and
/// validation errors from 422 responses (and 400 responses that list errors per field).
///
/// ```swift
/// let api = RESTSync(baseURL: URL(string: "https://api.example.com")!, headers: ["Authorization": "Bearer …"])
/// let notes = Collection<Note>(url: "/notes", sync: api)
/// try await notes.fetch()
/// ```
///
/// ### Where credentials go
///
/// The default ``headers`` (an `Authorization` header, a `Cookie`, an API key) are sent only
/// to the origin of ``baseURL``: the same scheme, host and port. A request that an absolute
/// `urlRoot` or collection `url`, a model's `baseURL`, a per-operation URL or
/// ``SyncOptions/url`` sends to another origin goes without them (a request's own headers, from
/// ``SyncOptions/headers``, still go with it). Without a ``baseURL`` no request gets them.
///
/// The default transport follows redirects through a ``CrossOriginRedirectGuard``, so a
/// redirect to another origin drops every header but the content ones; a redirect within the
/// origin keeps them all. A ``transport`` you pass in handles redirects itself: give your
/// `URLSession` a ``CrossOriginRedirectGuard`` delegate to keep this guarantee.
///
/// ### Headers and MIME types
///
/// A header name must be an RFC 9110 token and a value must have no control character but a
/// tab (no CR, LF or NUL), whether it is one of ``headers``, a call's own
/// (``SyncOptions/headers``) or a decorator's (the token of a ``TokenAuthSync``, the CSRF token
/// of a ``DrupalSession``); otherwise the request throws ``SyncError/invalidHeader(name:reason:)``
/// before anything is sent. A file's ``FilePart/mimeType`` must be a media type
/// (`type/subtype; name=value`), or the request throws ``SyncError/invalidMIMEType(_:reason:)``.
///
/// ### Limits
///
/// A request ends with ``SyncError/timedOut`` once its ``timeout`` (or the call's
/// ``SyncOptions/timeout``) has passed, whatever the server does; and with
/// ``SyncError/responseTooLarge(limit:)`` when the answer's body is larger than
/// ``maximumResponseBytes`` (or the call's ``SyncOptions/maximumResponseBytes``): a
/// `Content-Length` over the limit ends it before the body is read, a body without one once
/// the limit is passed.
///
/// ### Paths
///
/// A request URL whose path has a `.` or `..` segment (literal or percent-encoded) throws
/// ``SyncError/unsafePathSegment(_:)`` before anything is sent: `URLSession` would remove
/// those segments and send the request, with its credentials, to another resource.
public struct RESTSync: Sync {
    /// The base URL that relative request URLs resolve against; its origin is the only one
    /// that receives ``headers``.
    public var baseURL: URL?
    /// Headers sent with every request to the origin of ``baseURL``, and to no other; a
    /// request's own headers win.
    ///
    /// Names must be RFC 9110 tokens and values free of control characters but the tab;
    /// otherwise every request throws ``SyncError/invalidHeader(name:reason:)``.
    public var headers: [String: String]
    /// The time limit of a request that sets none.
    public var timeout: Duration
    /// The largest response body read for a request that sets no limit of its own, in bytes;
    /// a larger one fails with ``SyncError/responseTooLarge(limit:)``.
    ///
    /// ```swift
    /// var api = RESTSync(baseURL: URL(string: "https://api.example.com")!)
    /// api.maximumResponseBytes = 8 * 1024 * 1024
    /// ```
    public var maximumResponseBytes: Int
    /// Sends PUT, PATCH and DELETE as POST with an `X-HTTP-Method-Override` header (and a
    /// `_method` form field with ``emulateJSON``), for servers that only accept GET and POST.
    public var emulateHTTP: Bool
    /// Sends bodies as `application/x-www-form-urlencoded` with the JSON in a `model` field,
    /// for servers that cannot read JSON bodies.
    public var emulateJSON: Bool
    /// What sends the requests.
    public var transport: any HTTPTransport

    /// Creates a REST backend.
    ///
    /// ```swift
    /// let api = RESTSync(baseURL: URL(string: "http://127.0.0.1:8000")!, timeout: .seconds(10))
    /// ```
    ///
    /// - Parameters:
    ///   - baseURL: The base URL for relative request URLs.
    ///   - headers: Headers for every request.
    ///   - timeout: The default time limit per request.
    ///   - maximumResponseBytes: The largest response body to read, by default
    ///     ``defaultMaximumResponseBytes``.
    ///   - emulateHTTP: Tunnel PUT, PATCH and DELETE through POST.
    ///   - emulateJSON: Send form-encoded bodies.
    ///   - transport: What sends the requests; by default a new ephemeral `URLSession` whose
    ///     delegate is a ``CrossOriginRedirectGuard``, shared by the copies of this value and
    ///     invalidated when the last of them is gone.
    public init(
        baseURL: URL? = nil,
        headers: [String: String] = [:],
        timeout: Duration = .seconds(60),
        maximumResponseBytes: Int = RESTSync.defaultMaximumResponseBytes,
        emulateHTTP: Bool = false,
        emulateJSON: Bool = false,
        transport: (any HTTPTransport)? = nil
    ) {
        self.baseURL = baseURL
        self.headers = headers
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
        self.emulateHTTP = emulateHTTP
        self.emulateJSON = emulateJSON
        self.transport = transport ?? OwnedURLSession()
    }

    /// The default of ``maximumResponseBytes``: 64 MiB.
    ///
    /// A list of 100,000 records fits in it with 670 bytes of JSON per record, two to three
    /// times what a record of a dozen fields with a sentence or two of text takes; parsing a
    /// body of this size takes a few hundred megabytes at its peak. A server that sends more
    /// (a wrong URL, a captive portal, an endless stream) is cut off there instead of
    /// filling the memory.
    ///
    /// ```swift
    /// RESTSync.defaultMaximumResponseBytes  // 67_108_864
    /// ```
    public static let defaultMaximumResponseBytes = 64 * 1024 * 1024

    /// Sends the request and decodes the response.
    ///
    /// ```swift
    /// let response = try await api.perform(SyncRequest(method: .read, url: URL(string: "/notes")!))
    /// ```
    ///
    /// - Parameter request: The operation.
    /// - Returns: The status, headers and JSON body (`nil` for an empty body; the text of a
    ///   `text/plain` one).
    /// - Throws: ``SyncError``.
    public func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        var urlRequest = try self.urlRequest(for: request)
        if Task.isCancelled { throw .cancelled }
        let staged = try stagedBody(of: request, urlRequest: &urlRequest)
        defer { staged?.remove() }
        if Task.isCancelled { throw .cancelled }
        let data: Data
        let urlResponse: URLResponse
        do {
            (data, urlResponse) = try await exchange(urlRequest, staged: staged, for: request)
        } catch let error as URLError where error.code == ResponseSizeLimit.exceeded.code {
            throw .responseTooLarge(limit: request.maximumResponseBytes ?? maximumResponseBytes)
        } catch {
            throw Self.syncError(for: error)
        }
        guard let http = urlResponse as? HTTPURLResponse else {
            throw .transport("the response to \(urlRequest.url?.absoluteString ?? "") is not HTTP")
        }
        var responseHeaders: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            responseHeaders[String(describing: name).lowercased()] = String(describing: value)
        }
        if let setCookie = responseHeaders["set-cookie"], let host = urlRequest.url?.host,
            let storage = (transport as? any CookieStoringTransport)?.cookieStorage
        {
            storage.deleteCookies(deletedBy: setCookie, host: host)
        }
        let status = http.statusCode
        var body: JSONValue?
        if !data.isEmpty && !data.allSatisfy(Self.isWhitespace) {
            let contentType = responseHeaders["content-type"]
            if Self.isPlainText(contentType) {
                // A plain-text answer, such as Drupal's CSRF token: the text itself.
                body = .string(String(decoding: data, as: UTF8.self))
            } else if (200..<300).contains(status), let contentType, !JSONMediaType.matches(contentType) {
                // A success that is not JSON is not the API's answer: a captive portal's
                // sign-in page (`200 text/html`), or a proxy's. It is not taken as the record.
                throw .undecodableBody(
                    status: status,
                    reason: "its Content-Type is \(contentType), not JSON",
                    text: String(decoding: data, as: UTF8.self)
                )
            } else {
                do {
                    body = try JSONValue(parsing: data)
                } catch {
                    let text = String(decoding: data, as: UTF8.self)
                    guard !(200..<300).contains(status) else {
                        throw .undecodableBody(
                            status: status,
                            reason: "\(error.description) (Content-Type \(contentType ?? "none"))",
                            text: text
                        )
                    }
                    body = .string(text)
                }
            }
        }
        let response = SyncResponse(
            status: status,
            headers: responseHeaders,
            body: body,
            url: http.url ?? urlRequest.url
        )
        guard response.isSuccess else {
            FailedResponseRecorder.record(response)
            throw SyncError(failing: response)
        }
        return response
    }

    /// The HTTP request that ``perform(_:)`` sends for a sync request.
    ///
    /// ```swift
    /// let http = try api.urlRequest(for: request)
    /// http.httpMethod  // "PUT"
    /// ```
    ///
    /// - Parameter request: The operation.
    /// - Returns: The URL request, with method, headers, body and timeout; ``headers`` only
    ///   when the URL has the origin of ``baseURL``. A multipart ``SyncRequest/requestBody``
    ///   is not in it: ``perform(_:)`` writes it to a temporary file, sets its
    ///   `Content-Type` with the boundary, and uploads the file.
    /// - Throws: ``SyncError/missingURL(_:)`` when the URL cannot be resolved;
    ///   ``SyncError/unsafePathSegment(_:)`` when its path has a `.` or `..` segment;
    ///   ``SyncError/invalidHeader(name:reason:)`` when a name in ``headers`` or the request's
    ///   headers is not an RFC 9110 token, or a value has a control character other than a tab;
    ///   ``SyncError/unencodableBody(_:)`` when the body cannot be written as JSON.
    public func urlRequest(for request: SyncRequest) throws(SyncError) -> URLRequest {
        try HTTPHeaderSyntax.validate(headers)
        try HTTPHeaderSyntax.validate(request.headers)
        let url = try resolvedURL(for: request)
        let emulateHTTP = request.emulateHTTP ?? self.emulateHTTP
        let emulateJSON = request.emulateJSON ?? self.emulateJSON
        let method = request.method.httpMethod
        let tunnels = emulateHTTP && [.update, .patch, .delete].contains(request.method)

        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = tunnels ? "POST" : method
        urlRequest.timeoutInterval = Self.seconds(request.timeout ?? timeout)
        urlRequest.setValue("application/json", forHTTPHeaderField: "Accept")
        if tunnels { urlRequest.setValue(method, forHTTPHeaderField: "X-HTTP-Method-Override") }

        let sendsBody = [.create, .update, .patch].contains(request.method)
        if let requestBody = request.requestBody {
            try Self.setBody(requestBody, of: &urlRequest, tunnelling: tunnels ? method : nil)
        } else if emulateJSON {
            var fields: [(String, String)] = []
            if sendsBody { fields.append(("model", String(decoding: try Self.jsonData(request.body), as: UTF8.self))) }
            if tunnels { fields.append(("_method", method)) }
            if !fields.isEmpty || sendsBody {
                urlRequest.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
                let encoded = fields.map { "\(Self.formEncode($0.0))=\(Self.formEncode($0.1))" }.joined(separator: "&")
                urlRequest.httpBody = Data(encoded.utf8)
            }
        } else if sendsBody {
            urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
            urlRequest.httpBody = try Self.jsonData(request.body)
        }
        if HTTPOrigin.same(url, baseURL) {
            for (name, value) in headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        }
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        return urlRequest
    }

    // MARK: - Helpers

    /// The absolute URL of a request: its own, or resolved against ``baseURL``, with its query
    /// parameters appended.
    ///
    /// Its path must address what it names: `URLSession` would remove `.` and `..` segments, and
    /// servers decode `%2E` to `.`, so either would send the request somewhere else.
    private func resolvedURL(for request: SyncRequest) throws(SyncError) -> URL {
        var url = request.url
        if url.scheme == nil {
            guard let baseURL else {
                throw .missingURL("\(url.relativeString) is relative and RESTSync has no baseURL")
            }
            url = try URLPath.resolve(url.relativeString, against: baseURL)
        }
        if !request.query.isEmpty {
            url = try Self.appending(request.query, to: url)
        }
        let segments = url.path(percentEncoded: true).split(separator: "/")
        if let unsafe = segments.first(where: URLPath.isDotSegment) { throw .unsafePathSegment(String(unsafe)) }
        return url
    }

    /// Sets a ``RequestBody`` other than a multipart form (which ``stagedBody(of:urlRequest:)``
    /// writes to a file) and its `Content-Type`; a tunnelled method also goes in a `_method`
    /// field of a form, as Rails' `Rack::MethodOverride` reads it.
    private static func setBody(
        _ body: RequestBody,
        of urlRequest: inout URLRequest,
        tunnelling method: String?
    ) throws(SyncError) {
        switch body {
        case .json(let value):
            urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
            urlRequest.httpBody = try jsonData(value)
        case .formURLEncoded(let fields):
            urlRequest.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            let all = fields + (method.map { [("_method", $0)] } ?? [])
            urlRequest.httpBody = Data(RequestBody.urlEncoded(all).utf8)
        case .multipart:
            urlRequest.setValue("multipart/form-data", forHTTPHeaderField: "Content-Type")
        }
    }

    /// Writes the body to a temporary file to upload, or returns `nil`.
    ///
    /// A multipart form always goes to a file, any body when the call tracks upload
    /// progress; the `Content-Type` is set to match. The caller removes the file.
    private func stagedBody(of request: SyncRequest, urlRequest: inout URLRequest) throws(SyncError) -> StagedBody? {
        if case .multipart(var form) = request.requestBody {
            if let tunnelled = urlRequest.value(forHTTPHeaderField: "X-HTTP-Method-Override") {
                form.append("_method", tunnelled)
            }
            let staged = try MultipartEncoder.encode(form)
            urlRequest.setValue(staged.contentType, forHTTPHeaderField: "Content-Type")
            return staged
        }
        guard request.onUploadProgress != nil, let body = urlRequest.httpBody else { return nil }
        let staged = try StagedBody.create(
            contentType: urlRequest.value(forHTTPHeaderField: "Content-Type") ?? "application/octet-stream",
            contents: body
        )
        urlRequest.httpBody = nil
        return staged
    }

    /// The request body (`null` when there is none) as JSON text.
    private static func jsonData(_ body: JSONValue?) throws(SyncError) -> Data {
        do {
            return try (body ?? .null).jsonData()
        } catch {
            throw .unencodableBody(error)
        }
    }

    /// Characters left alone in query and form values: RFC 3986's unreserved set.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    )

    private static func formEncode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static func appending(_ items: [URLQueryItem], to url: URL) throws(SyncError) -> URL {
        let encoded = items.map { "\(formEncode($0.name))=\(formEncode($0.value ?? ""))" }.joined(separator: "&")
        var text = url.absoluteString
        let fragment = text.firstIndex(of: "#").map { String(text[$0...]) } ?? ""
        if !fragment.isEmpty { text.removeLast(fragment.count) }
        text += (text.contains("?") ? "&" : "?") + encoded + fragment
        guard let result = URL(string: text) else { throw .missingURL("\(text) is not a valid URL") }
        return result
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }

    /// Whether a `Content-Type` is `text/plain`.
    private static func isPlainText(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";").first ?? ""
        return mediaType.trimmingCharacters(in: .whitespaces).lowercased() == "text/plain"
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Sends the request (its staged body from disk, if any) and returns the answer; follows a
    /// 307 or 308 redirect that the default session leaves to it, with the body.
    private func exchange(
        _ urlRequest: URLRequest,
        staged: StagedBody?,
        for request: SyncRequest
    ) async throws -> (Data, URLResponse) {
        let transport = self.transport
        // The default transport keeps the request's `timeoutInterval` as a limit on the whole
        // exchange, from the threads its answers arrive on. Other transports may ignore it, so
        // their limit is kept here too: TimeLimit returns at the limit even if the transport is
        // slow to acknowledge its cancellation.
        let limit: Duration? = transport is OwnedURLSession ? nil : request.timeout ?? timeout
        let maximumBytes = request.maximumResponseBytes ?? maximumResponseBytes
        var hop = urlRequest
        for _ in 0...20 {
            let sent = hop
            let answer: (Data, URLResponse)
            if let staged {
                let progress = request.onUploadProgress ?? { _ in }
                answer = try await TimeLimit.run(within: limit) {
                    try await transport.upload(
                        sent,
                        fromFile: staged.file,
                        maximumResponseBytes: maximumBytes,
                        progress: progress
                    )
                }
            } else {
                answer = try await TimeLimit.run(within: limit) {
                    try await transport.send(sent, maximumResponseBytes: maximumBytes)
                }
            }
            guard sent.httpBody != nil || staged != nil,
                let next = CrossOriginRedirectGuard.bodyKeepingRedirect(of: sent, answeredWith: answer.1)
            else { return answer }
            hop = next
        }
        throw URLError(.httpTooManyRedirects)
    }

    /// Maps a transport failure to the matching ``SyncError``.
    static func syncError(for error: any Error) -> SyncError {
        if error is CancellationError { return .cancelled }
        if let urlError = error as? URLError {
            switch urlError.code {
            case .cancelled: return .cancelled
            case .timedOut: return .timedOut
            default: return .transport(urlError.localizedDescription + " (URLError \(urlError.code.rawValue))")
            }
        }
        return .transport(String(describing: error))
    }
}
