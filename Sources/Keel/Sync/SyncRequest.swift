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
    /// Every field, behind one reference that copies share until one of them changes: a
    /// request travels by value from the model through its events, its backend and its
    /// response's context, and each copy of the fields themselves retained and released a
    /// dozen references.
    private var storage: SyncRequestStorage

    /// The fields, copied out of a shared storage before a change (copy on write).
    private var fields: SyncRequestFields {
        get { storage.fields }
        _modify {
            if !isKnownUniquelyReferenced(&storage) { storage = SyncRequestStorage(storage.fields) }
            yield &storage.fields
        }
    }

    /// The operation.
    public var method: SyncMethod {
        get { storage.fields.method }
        set { fields.method = newValue }
    }
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
    var target: RequestTarget {
        get { storage.fields.target }
        set { fields.target = newValue }
    }
    /// The JSON body for `create`, `update` and `patch`; `nil` for `read` and `delete`.
    public var body: JSONValue? {
        get { storage.fields.body }
        set { fields.body = newValue }
    }
    /// Query parameters for the URL, in order (Backbone's `fetch({data})`).
    public var query: [URLQueryItem] {
        get { storage.fields.query }
        set { fields.query = newValue }
    }
    /// Extra HTTP headers for this request.
    public var headers: [String: String] {
        get { storage.fields.headers }
        set { fields.headers = newValue }
    }
    /// The longest the backend may take, or `nil` for its default.
    public var timeout: Duration? {
        get { storage.fields.timeout }
        set { fields.timeout = newValue }
    }
    /// The largest response body the backend reads, in bytes, or `nil` for its default
    /// (``RESTSync/maximumResponseBytes``).
    public var maximumResponseBytes: Int? {
        get { storage.fields.maximumResponseBytes }
        set { fields.maximumResponseBytes = newValue }
    }
    /// Per-request override of ``RESTSync/emulateHTTP``.
    public var emulateHTTP: Bool? {
        get { storage.fields.emulateHTTP }
        set { fields.emulateHTTP = newValue }
    }
    /// Per-request override of ``RESTSync/emulateJSON``.
    public var emulateJSON: Bool? {
        get { storage.fields.emulateJSON }
        set { fields.emulateJSON = newValue }
    }
    /// Free-form values for custom backends and decorators.
    public var context: JSONObject {
        get { storage.fields.context }
        set { fields.context = newValue }
    }
    /// The body ``RESTSync`` sends instead of ``body`` as JSON.
    ///
    /// A URL-encoded form, or a multipart form with files (``SyncOptions/requestBody``,
    /// ``SyncOptions/files``). Backends that store records rather than send HTTP keep using ``body``.
    ///
    /// ```swift
    /// var request = SyncRequest(method: .create, url: URL(string: "/photos")!)
    /// request.requestBody = .multipart(MultipartForm([.file(name: "photo", .file(photoURL))]))
    /// ```
    public var requestBody: RequestBody? {
        get { storage.fields.requestBody }
        set { fields.requestBody = newValue }
    }
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
    public var rootKey: String? {
        get { storage.fields.rootKey }
        set { fields.rootKey = newValue }
    }
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
    public var listKeyPath: String? {
        get { storage.fields.listKeyPath }
        set { fields.listKeyPath = newValue }
    }
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
    public var pageStyle: PageStyle? {
        get { storage.fields.pageStyle }
        set { fields.pageStyle = newValue }
    }
    /// The handler behind ``onUploadProgress``, compared by identity.
    var uploadProgressHandler: UploadProgressHandler? {
        get { storage.fields.uploadProgressHandler }
        set { fields.uploadProgressHandler = newValue }
    }

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
        storage = SyncRequestStorage(
            SyncRequestFields(
                method: method,
                target: .url(url),
                body: body,
                query: query,
                headers: headers,
                timeout: timeout,
                emulateHTTP: emulateHTTP,
                emulateJSON: emulateJSON,
                context: context
            )
        )
    }

    /// A request with every field but these at its default, for a target built by Keel.
    init(method: SyncMethod, target: RequestTarget, query: [URLQueryItem]) {
        storage = SyncRequestStorage(SyncRequestFields(method: method, target: target, query: query))
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

    /// Whether two requests have equal fields.
    public static func == (lhs: SyncRequest, rhs: SyncRequest) -> Bool {
        lhs.storage.fields == rhs.storage.fields
    }

    /// Hashes the fields.
    public func hash(into hasher: inout Hasher) {
        storage.fields.hash(into: &hasher)
    }
}
