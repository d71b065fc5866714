public import Foundation

/// Everything one persistence call carries to a ``Sync`` backend.
///
/// New fields are added with default values, so backends written against an earlier
/// version keep compiling.
///
/// ```swift
/// let request = SyncRequest(method: .read, url: URL(string: "/notes/1")!)
/// let response = try await InMemorySync().perform(request)
/// ```
public struct SyncRequest: Sendable, Hashable {
    /// The operation.
    public var method: SyncMethod
    /// The resource: absolute when a base URL is known, otherwise relative (such as `/notes/1`).
    ///
    /// ```swift
    /// request.url.path  // "/notes/1"
    /// ```
    public var url: URL {
        get { target.url }
        set { target = .url(newValue) }
    }
    /// The resource as it was given: a URL, or a path whose URL is made when ``url`` is read.
    var target: RequestTarget
    /// The JSON body for `create`, `update` and `patch`; `nil` for `read` and `delete`.
    public var body: JSONValue?
    /// Query parameters for the URL, in order (Backbone's `fetch({data})`).
    public var query: [URLQueryItem]
    /// Extra HTTP headers for this request.
    public var headers: [String: String]
    /// The longest the backend may take, or `nil` for its default.
    public var timeout: Duration?
    /// The largest response body the backend reads, in bytes, or `nil` for its default
    /// (``RESTSync/maximumResponseBytes``).
    public var maximumResponseBytes: Int?
    /// Per-request override of ``RESTSync/emulateHTTP``.
    public var emulateHTTP: Bool?
    /// Per-request override of ``RESTSync/emulateJSON``.
    public var emulateJSON: Bool?
    /// Free-form values for custom backends and decorators.
    public var context: JSONObject
    /// The body ``RESTSync`` sends instead of ``body`` as JSON.
    ///
    /// A URL-encoded form, or a multipart form with files (``SyncOptions/requestBody``,
    /// ``SyncOptions/files``). Backends that store records rather than send HTTP keep using ``body``.
    ///
    /// ```swift
    /// var request = SyncRequest(method: .create, url: URL(string: "/photos")!)
    /// request.requestBody = .multipart(MultipartForm([.file(name: "photo", .file(photoURL))]))
    /// ```
    public var requestBody: RequestBody?
    /// The root key the model's ``WireFormat`` wraps a record in (`"note"` for Rails'
    /// `{"note": {…}}`), or `nil` when it sends records unwrapped.
    ///
    /// Set on every request of a model or collection whose format wraps requests, `read` and
    /// `delete` included. ``RESTSync`` sends the body as it is; a backend that keeps records (a
    /// ``RecordStore``, `SQLiteSync`, the local copy of `CachingSync`) stores
    /// ``unwrappedBody``.
    ///
    /// ```swift
    /// request.rootKey     // "note"
    /// request.body        // {"note": {"title": "Hi"}}
    /// ```
    public var rootKey: String?
    /// Where a collection read's answer keeps its records (the call's
    /// ``WireFormat/listKeyPath``, `"results"` for DRF's page envelope), or `nil` when the
    /// answer is the list itself.
    ///
    /// Set on a collection's `read`. ``RESTSync`` ignores it; a backend that answers lists
    /// itself (the local copy of `CachingSync`) finds the records there and answers in the
    /// same shape.
    ///
    /// ```swift
    /// request.listKeyPath  // "results"
    /// request.body         // nil: a read
    /// ```
    public var listKeyPath: String?
    /// How the list being read splits into pages, on a read of one page (the call's
    /// ``SyncOptions/pageStyle``, which a ``Paginator`` sets), or `nil`.
    ///
    /// ``RESTSync`` ignores it; a backend that answers lists itself (the local copy of
    /// `CachingSync`) reads the page parameters by the style's names and first page
    /// number, as the server would.
    ///
    /// ```swift
    /// request.pageStyle  // .pageNumber(page: "page", perPage: "per_page", firstPage: 0)
    /// request.query      // [page=0, per_page=25]
    /// ```
    public var pageStyle: PageStyle?
    /// The handler behind ``onUploadProgress``, compared by identity.
    var uploadProgressHandler: UploadProgressHandler?

    /// Called as the body is sent (``SyncOptions/onUploadProgress``), on a thread of the
    /// backend's choosing.
    ///
    /// ```swift
    /// request.onUploadProgress = { print($0.fractionCompleted) }
    /// ```
    public var onUploadProgress: (@Sendable (UploadProgress) -> Void)? {
        get { uploadProgressHandler?.report }
        set { uploadProgressHandler = newValue.map(UploadProgressHandler.init) }
    }

    /// Creates a request.
    ///
    /// ```swift
    /// let request = SyncRequest(method: .create, url: URL(string: "/notes")!, body: ["title": "Hi"])
    /// ```
    ///
    /// - Parameters:
    ///   - method: The operation.
    ///   - url: The resource.
    ///   - body: The JSON body.
    ///   - query: Query parameters.
    ///   - headers: Extra headers.
    ///   - timeout: A time limit.
    ///   - emulateHTTP: Override of the backend's setting.
    ///   - emulateJSON: Override of the backend's setting.
    ///   - context: Values for custom backends.
    public init(
        method: SyncMethod,
        url: URL,
        body: JSONValue? = nil,
        query: [URLQueryItem] = [],
        headers: [String: String] = [:],
        timeout: Duration? = nil,
        emulateHTTP: Bool? = nil,
        emulateJSON: Bool? = nil,
        context: JSONObject = [:]
    ) {
        self.method = method
        self.target = .url(url)
        self.body = body
        self.query = query
        self.headers = headers
        self.timeout = timeout
        self.emulateHTTP = emulateHTTP
        self.emulateJSON = emulateJSON
        self.context = context
    }

    /// A request with every field but these at its default, for a target built by Keel.
    init(method: SyncMethod, target: RequestTarget, query: [URLQueryItem]) {
        self.method = method
        self.target = target
        self.query = query
        headers = [:]
        context = [:]
    }

    /// The record the body carries: the value under ``rootKey`` when the body is an object
    /// with that one key holding an object, otherwise the body itself.
    ///
    /// ```swift
    /// var request = SyncRequest(method: .create, url: URL(string: "/notes")!, body: ["note": ["title": "Hi"]])
    /// request.rootKey = "note"
    /// request.unwrappedBody  // {"title": "Hi"}
    /// ```
    public var unwrappedBody: JSONValue? {
        guard let rootKey, let object = body?.objectValue, object.count == 1,
            let record = object[rootKey], record.objectValue != nil
        else { return body }
        return record
    }

    /// The URL's path with percent-encoding kept, such as `/users/a%2Fb`.
    ///
    /// ```swift
    /// request.path  // "/notes/1"
    /// ```
    public var path: String {
        let percentEncoded = target.percentEncodedPath
        return percentEncoded.isEmpty ? "/" : percentEncoded
    }
}
