public import Foundation

/// A backend that talks to a REST server over HTTP, in JSON or in the formats of its
/// ``codecs``.
///
/// It maps Backbone's methods to HTTP verbs (create→POST, read→GET, update→PUT,
/// patch→PATCH, delete→DELETE), resolves relative URLs against ``baseURL``, sends JSON
/// bodies (or a form, or a codec's format: ``BodyEncoding``), and turns every failure into a
/// ``SyncError``: transport errors, timeouts, cancellation, non-2xx statuses (with the body,
/// JSON or not), undecodable bodies, and validation errors from 422 responses (and 400
/// responses that list errors per field).
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
/// ### Body formats
///
/// An answer is decoded by the codec of ``codecs`` for its `Content-Type`: JSON (also
/// `text/json` and `+json` types), URL-encoded forms and plain text unless you register
/// more; one without a `Content-Type` is read as JSON. A success in a type no codec reads
/// (a captive portal's `200 text/html`) throws
/// ``SyncError/undecodableBody(status:reason:text:)`` with the body's text; a failure's body
/// in such a type is kept as its text in ``SyncError/httpStatus(_:body:)``. `Accept` lists
/// the codecs' media types unless ``headers`` or the call's headers set it.
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
    /// The codecs that read answers by their `Content-Type` and write bodies of
    /// ``BodyEncoding/mediaType(_:)``; `Accept` lists their media types.
    ///
    /// ```swift
    /// var api = RESTSync(baseURL: URL(string: "https://api.example.com")!)
    /// api.codecs.register(PropertyListCodec())
    /// ```
    public var codecs: BodyCodecs
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
    ///   - codecs: The codecs for bodies, by default ``BodyCodecs/standard``.
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
        codecs: BodyCodecs = .standard,
        transport: (any HTTPTransport)? = nil
    ) {
        self.baseURL = baseURL
        self.headers = headers
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
        self.emulateHTTP = emulateHTTP
        self.emulateJSON = emulateJSON
        self.codecs = codecs
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
    /// - Returns: The status, headers and body as its codec decoded it (`nil` for an empty
    ///   body; the text of a `text/plain` one).
    /// - Throws: ``SyncError``.
    public func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        var urlRequest = try self.urlRequest(for: request)
        if Task.isCancelled { throw .cancelled }
        let staged = try stagedBody(of: request, urlRequest: &urlRequest)
        defer { staged?.remove() }
        if Task.isCancelled { throw .cancelled }
        let (data, urlResponse) = try await answer(to: urlRequest, staged: staged, for: request)
        let response = try reply(data, urlResponse, to: urlRequest)
        guard response.isSuccess else {
            FailedResponseRecorder.record(response)
            throw SyncError(failing: response)
        }
        return response
    }
}
