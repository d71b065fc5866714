/// The options of one server call (`fetch`, `save`, `destroy`, `create`), passed on to the
/// backend, the hooks and the events it causes.
///
/// It holds the ``UpdateOptions`` with which a collection applies the response
/// (``update``), which in turn hold the ``ChangeOptions`` with which models apply it
/// (``change``); ``silent``, ``validate``, ``parse``, ``custom``, ``add``, ``remove`` and
/// ``merge`` read and write those. See ``ChangeOptions`` for how Keel splits Backbone's
/// `options` by concern.
///
/// ```swift
/// try await notes.fetch(options: SyncOptions(query: ["done": "false"], remove: false))
/// try await note.save(["title": "Draft"], options: SyncOptions(headers: ["X-Draft": "1"]))
/// ```
public struct SyncOptions {
    /// For `save`: apply the attributes only after the server agrees; for `destroy` and
    /// `create`: change the model or collection only after the server agrees.
    public var wait = false
    /// For `save`: send only the given (or unsaved) attributes with PATCH.
    public var patch = false
    /// For collection `fetch`: replace the models with `reset` instead of a smart `set`.
    public var reset = false
    /// A URL that replaces the model's or collection's URL for this call.
    public var url: String?
    /// The JSON body to send instead of ``Model/toJSON(options:)`` (Backbone's `attrs`).
    public var body: JSONValue?
    /// A body to send instead of JSON: a URL-encoded or multipart form.
    ///
    /// See ``RequestBody``. It replaces ``body``, ``files`` and ``Model/toJSON(options:)`` for ``RESTSync``.
    public var requestBody: RequestBody?
    /// Files to send with a save, keyed by attribute name: the attributes then go as form
    /// fields in the wire format's ``WireFormat/formNotation`` and the files beside them
    /// (see ``Model/save(_:files:wait:patch:options:)``).
    public var files: [String: FilePart] = [:]
    /// Called as the request body is sent, on a thread of the backend's choosing; the last
    /// call has ``UploadProgress/bytesSent`` equal to ``UploadProgress/totalBytes``.
    public var onUploadProgress: (@Sendable (UploadProgress) -> Void)?
    /// Query parameters, in order (Backbone's `fetch({data})`).
    public var query: KeyValuePairs<String, String> = [:]
    /// Related resources to include and fields to return (JSON:API's `include` and
    /// `fields[type]`), sent after ``query``.
    ///
    /// ```swift
    /// var options = SyncOptions()
    /// options.resources.include = ["author", "comments"]
    /// ```
    public var resources = ResourceSelection()
    /// How the list being read splits into pages, on a collection `fetch` of one page.
    ///
    /// A ``Paginator`` sets it to its style. It reaches the backend as
    /// ``SyncRequest/pageStyle``, so a backend that answers lists itself reads the page
    /// parameters by the style's names and first page number.
    ///
    /// ```swift
    /// var options = SyncOptions(query: ["p": "0"])
    /// options.pageStyle = .pageNumber(page: "p", perPage: nil, firstPage: 0)
    /// ```
    public var pageStyle: PageStyle?
    /// Extra HTTP headers.
    ///
    /// A name must be an RFC 9110 token and a value must have no control character but a tab
    /// (no CR, LF or NUL): otherwise the call throws ``SyncError/invalidHeader(name:reason:)``
    /// before the request reaches the backend.
    public var headers: [String: String] = [:]
    /// A time limit for the request.
    public var timeout: Duration?
    /// The largest response body to read, in bytes, instead of the backend's
    /// (``RESTSync/maximumResponseBytes``); a larger one fails with
    /// ``SyncError/responseTooLarge(limit:)``.
    ///
    /// ```swift
    /// try await archive.fetch(options: SyncOptions(maximumResponseBytes: 512 * 1024 * 1024))
    /// ```
    public var maximumResponseBytes: Int?
    /// Per-call override of ``RESTSync/emulateHTTP``.
    public var emulateHTTP: Bool?
    /// Per-call override of ``RESTSync/emulateJSON``.
    public var emulateJSON: Bool?
    /// The wire format of this call, instead of the collection's or the model class's.
    public var wireFormat: WireFormat?
    /// The name of one of the class's ``Routes/named`` routes to use instead of the model's
    /// or collection's URL.
    public var route: String?
    /// Values for the route's parameters, before the model's attributes.
    public var routeParameters: [String: JSONValue] = [:]
    /// Parameters added to the body this call builds from the model, beside the record, over
    /// the wire format's ``WireFormat/bodyParameters``; the record's own keys keep their values.
    ///
    /// ```swift
    /// try await user.save(options: SyncOptions(bodyParameters: ["invite_code": "X7"]))
    /// // {"user": {…}, "invite_code": "X7"}
    /// ```
    public var bodyParameters: JSONObject = [:]
    /// ISModel's success handler: called with the response after the attributes are
    /// applied, before the `sync` event.
    public var onSuccess: ((SyncResponse) -> Void)?
    /// ISModel's failure handler: called instead of emitting `error`.
    public var onFailure: ((SyncError) -> Void)?
    /// How a collection applies the response (`add`, `remove`, `merge`) and how models
    /// apply it (``UpdateOptions/change``).
    public var update = UpdateOptions()
    /// Internal: runs after a save's response is applied, before `onSuccess` and `sync`
    /// (`Collection.create` with `wait` adds the model there, as Backbone does).
    var afterSave: (() -> Void)?

    /// The options with which models apply the response, carried by the call's events.
    public var change: ChangeOptions {
        get { update.change }
        set { update.change = newValue }
    }
    /// Suppresses the call's attribute and collection events (`request`, `sync` and `error`
    /// still fire, as in Backbone).
    public var silent: Bool {
        get { update.change.silent }
        set { update.change.silent = newValue }
    }
    /// Whether to validate (``ChangeOptions/validate``).
    public var validate: Bool? {
        get { update.change.validate }
        set { update.change.validate = newValue }
    }
    /// Whether the response goes through `parse`; `nil` means yes.
    public var parse: Bool? {
        get { update.change.parse }
        set { update.change.parse = newValue }
    }
    /// Custom values for your own hooks, listeners and backend
    /// (``SyncRequest/context``).
    public var custom: JSONObject {
        get { update.change.custom }
        set { update.change.custom = newValue }
    }
    /// Called instead of emitting `invalid` and `error` when validation fails.
    public var onValidationError: ((Model, ValidationError, ChangeOptions) -> Void)? {
        get { update.change.onValidationError }
        set { update.change.onValidationError = newValue }
    }
    /// For collection `fetch`: add models that are not present (``UpdateOptions/add``).
    public var add: Bool? {
        get { update.add }
        set { update.add = newValue }
    }
    /// For collection `fetch`: remove models missing from the response
    /// (``UpdateOptions/remove``).
    public var remove: Bool? {
        get { update.remove }
        set { update.remove = newValue }
    }
    /// For collection `fetch`: merge into present models (``UpdateOptions/merge``).
    public var merge: Bool? {
        get { update.merge }
        set { update.merge = newValue }
    }

    /// Creates options with every flag at its default.
    ///
    /// ```swift
    /// let options = SyncOptions()
    /// ```
    public init() {}

    /// Creates options.
    ///
    /// ```swift
    /// let options = SyncOptions(url: "/notes/search", query: ["q": "dune"], timeout: .seconds(5))
    /// ```
    ///
    /// - Parameters:
    ///   - wait: Change the model or collection only after the server agrees.
    ///   - patch: Send only the changes, with PATCH.
    ///   - reset: For collection `fetch`: replace the models with `reset`.
    ///   - url: A URL for this call only.
    ///   - body: The body to send instead of `toJSON`.
    ///   - query: Query parameters.
    ///   - headers: Extra HTTP headers.
    ///   - timeout: A time limit.
    ///   - maximumResponseBytes: The largest response body to read.
    ///   - emulateHTTP: Per-call override of ``RESTSync/emulateHTTP``.
    ///   - emulateJSON: Per-call override of ``RESTSync/emulateJSON``.
    ///   - wireFormat: The wire format of this call.
    ///   - route: The name of a route of the class to use.
    ///   - routeParameters: Values for the route's parameters.
    ///   - bodyParameters: Parameters added to the body built from the model.
    ///   - add: For collection `fetch`: add new models.
    ///   - remove: For collection `fetch`: remove missing models.
    ///   - merge: For collection `fetch`: merge into present models.
    ///   - silent: Suppresses attribute and collection events.
    ///   - validate: Whether to validate.
    ///   - parse: Whether to run `parse` on the response.
    ///   - custom: Custom values for hooks, listeners and the backend.
    ///   - onValidationError: Called instead of emitting `invalid` and `error`.
    ///   - onSuccess: Called with the response before `sync`.
    ///   - onFailure: Called instead of emitting `error`.
    public init(
        wait: Bool = false,
        patch: Bool = false,
        reset: Bool = false,
        url: String? = nil,
        body: JSONValue? = nil,
        query: KeyValuePairs<String, String> = [:],
        headers: [String: String] = [:],
        timeout: Duration? = nil,
        maximumResponseBytes: Int? = nil,
        emulateHTTP: Bool? = nil,
        emulateJSON: Bool? = nil,
        wireFormat: WireFormat? = nil,
        route: String? = nil,
        routeParameters: [String: JSONValue] = [:],
        bodyParameters: JSONObject = [:],
        add: Bool? = nil,
        remove: Bool? = nil,
        merge: Bool? = nil,
        silent: Bool = false,
        validate: Bool? = nil,
        parse: Bool? = nil,
        custom: JSONObject = [:],
        onValidationError: ((Model, ValidationError, ChangeOptions) -> Void)? = nil,
        onSuccess: ((SyncResponse) -> Void)? = nil,
        onFailure: ((SyncError) -> Void)? = nil
    ) {
        self.wait = wait
        self.patch = patch
        self.reset = reset
        self.url = url
        self.body = body
        self.query = query
        self.headers = headers
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
        self.emulateHTTP = emulateHTTP
        self.emulateJSON = emulateJSON
        self.wireFormat = wireFormat
        self.route = route
        self.routeParameters = routeParameters
        self.bodyParameters = bodyParameters
        self.onSuccess = onSuccess
        self.onFailure = onFailure
        update = UpdateOptions(
            add: add,
            remove: remove,
            merge: merge,
            silent: silent,
            validate: validate,
            parse: parse,
            custom: custom,
            onValidationError: onValidationError
        )
    }

    /// The custom value stored under `key`.
    ///
    /// ```swift
    /// var options = SyncOptions()
    /// options["source"] = "pull-to-refresh"
    /// ```
    public subscript(key: String) -> JSONValue? {
        get { update[key] }
        set { update[key] = newValue }
    }
}
