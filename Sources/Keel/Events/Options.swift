/// The options of one call, passed on to every hook and event that the call causes.
///
/// Backbone passes a mutable `options` object through `set`, hooks and events. Keel passes
/// this value instead: the flags Keel itself reads, plus ``custom`` values for your own
/// listeners. Values that Backbone writes *into* the options for listeners (`index`,
/// `changes`, `previousModels`, `validationError`) are properties of ``Event`` instead.
///
/// Most methods take the common flags as parameters too, so you rarely build one by hand:
///
/// ```swift
/// note.set(["title": "Draft"], silent: true)
/// note.set(["title": ""], options: Options(custom: ["source": "form"]))
/// ```
public struct Options {
    /// Suppresses the events and validation-error reporting of the call.
    ///
    /// An invalid change is still rejected when silent; the call's result says so.
    public var silent = false
    /// Whether to run ``Model/validate(_:options:)``; `nil` means the call's default.
    ///
    /// Keel validates every change by default (ISModel's rule); pass `false` to skip
    /// validation for one call. Construction validates only with `true`.
    public var validate: Bool?
    /// Whether to run `parse` on the input before using it; `nil` means the call's default
    /// (no for `set`, `add` and initializers; yes for `fetch` and `save` responses).
    public var parse: Bool?
    /// For collection `set`: add models that are not in the collection yet.
    public var add: Bool?
    /// For collection `set`: remove models that are not in the input.
    public var remove: Bool?
    /// For collection `set` and `add`: merge attributes into models that are already present.
    public var merge: Bool?
    /// For collection `add` and `set`: the position to insert at; negative counts from the end.
    public var at: Int? {
        get { extras?.at }
        set { mutableExtras().at = newValue }
    }
    /// For collection `add` and `set`: `false` keeps a comparator from sorting.
    public var sort: Bool?
    /// For `save`: apply the attributes only after the server agrees; for `destroy` and
    /// `create`: change the model or collection only after the server agrees.
    public var wait = false
    /// For `save`: send only the given (or unsaved) attributes with PATCH.
    public var patch = false
    /// For collection `fetch`: replace the models with `reset` instead of a smart `set`.
    public var reset = false
    /// For sync calls: a URL that replaces the model's or collection's URL for this call.
    public var url: String? {
        get { extras?.url }
        set { mutableExtras().url = newValue }
    }
    /// For sync calls: the JSON body to send instead of ``Model/toJSON(options:)``
    /// (Backbone's `options.attrs`).
    public var body: JSONValue? {
        get { extras?.body }
        set { mutableExtras().body = newValue }
    }
    /// For sync calls: query parameters, in order (Backbone's `fetch({data})`).
    public var query: KeyValuePairs<String, String> {
        get { extras?.query ?? [:] }
        set { mutableExtras().query = newValue }
    }
    /// For sync calls: extra HTTP headers.
    public var headers: [String: String] {
        get { extras?.headers ?? [:] }
        set { mutableExtras().headers = newValue }
    }
    /// For sync calls: a time limit for the request.
    public var timeout: Duration? {
        get { extras?.timeout }
        set { mutableExtras().timeout = newValue }
    }
    /// For sync calls: per-call override of ``RESTSync/emulateHTTP``.
    public var emulateHTTP: Bool?
    /// For sync calls: per-call override of ``RESTSync/emulateJSON``.
    public var emulateJSON: Bool?
    /// Custom values for your own hooks and listeners.
    public var custom: JSONObject {
        get { extras?.custom ?? [:] }
        set { mutableExtras().custom = newValue }
    }
    /// ISModel's success handler for sync calls: called with the response after the
    /// attributes are applied, before the `sync` event.
    public var onSuccess: ((SyncResponse) -> Void)? {
        get { extras?.onSuccess }
        set { mutableExtras().onSuccess = newValue }
    }
    /// ISModel's failure handler for sync calls: called instead of emitting `error`.
    public var onFailure: ((SyncError) -> Void)? {
        get { extras?.onFailure }
        set { mutableExtras().onFailure = newValue }
    }
    /// ISModel's validation-error handler: called instead of emitting `invalid` and `error`
    /// when validation fails.
    public var onValidationError: ((Model, ValidationError, Options) -> Void)? {
        get { extras?.onValidationError }
        set { mutableExtras().onValidationError = newValue }
    }
    /// Internal: the `set` removes the given keys (``Model/unset(_:silent:validate:options:)``).
    var unset: Bool = false
    /// Internal: the collection creating a model, visible to it from the start of `init`.
    var collection: (any ModelCollection)? {
        get { extras?.collection }
        set { mutableExtras().collection = newValue }
    }
    /// Internal: whether rejected models are reported as `invalid`, when that differs from
    /// ``silent`` (a `reset` adds silently but reports invalid models unless it is silent).
    var reportsInvalid: Bool?
    /// Internal: runs after a save's response is applied, before `onSuccess` and `sync`
    /// (`Collection.create` with `wait` adds the model there, as Backbone does).
    var afterSave: (() -> Void)? {
        get { extras?.afterSave }
        set { mutableExtras().afterSave = newValue }
    }
    /// Internal: the attributes a collection initializer builds its first models from.
    var initialAttributes: [Attributes]? {
        get { extras?.initialAttributes }
        set { mutableExtras().initialAttributes = newValue }
    }

    /// The options that hold references or take more than a byte, kept out of line: most
    /// calls set none of them, so copying options (into every event) copies a few flags and
    /// one `nil`.
    private var extras: Extras?

    private final class Extras {
        var at: Int?
        var timeout: Duration?
        var url: String?
        var body: JSONValue?
        var query: KeyValuePairs<String, String> = [:]
        var headers: [String: String] = [:]
        var custom: JSONObject = [:]
        var onSuccess: ((SyncResponse) -> Void)?
        var onFailure: ((SyncError) -> Void)?
        var onValidationError: ((Model, ValidationError, Options) -> Void)?
        var afterSave: (() -> Void)?
        var initialAttributes: [Attributes]?
        weak var collection: (any ModelCollection)?

        init() {}

        func copy() -> Extras {
            let copy = Extras()
            copy.at = at
            copy.timeout = timeout
            copy.url = url
            copy.body = body
            copy.query = query
            copy.headers = headers
            copy.custom = custom
            copy.onSuccess = onSuccess
            copy.onFailure = onFailure
            copy.onValidationError = onValidationError
            copy.afterSave = afterSave
            copy.initialAttributes = initialAttributes
            copy.collection = collection
            return copy
        }
    }

    /// The extras, created or copied so that this value owns them alone.
    private mutating func mutableExtras() -> Extras {
        if isKnownUniquelyReferenced(&extras), let current = extras {
            return current
        }
        let unique = extras?.copy() ?? Extras()
        extras = unique
        return unique
    }

    /// Creates options with every flag at its default: what a call without options uses.
    ///
    /// A separate initializer so that the default argument of every method is cheap.
    ///
    /// ```swift
    /// let options = Options()
    /// ```
    public init() {}

    /// Creates options.
    ///
    /// ```swift
    /// let options = Options(silent: true, custom: ["amazing": true])
    /// ```
    public init(
        silent: Bool = false,
        validate: Bool? = nil,
        parse: Bool? = nil,
        add: Bool? = nil,
        remove: Bool? = nil,
        merge: Bool? = nil,
        at: Int? = nil,
        sort: Bool? = nil,
        wait: Bool = false,
        patch: Bool = false,
        reset: Bool = false,
        url: String? = nil,
        body: JSONValue? = nil,
        query: KeyValuePairs<String, String> = [:],
        headers: [String: String] = [:],
        timeout: Duration? = nil,
        emulateHTTP: Bool? = nil,
        emulateJSON: Bool? = nil,
        custom: JSONObject = [:],
        onValidationError: ((Model, ValidationError, Options) -> Void)? = nil,
        onSuccess: ((SyncResponse) -> Void)? = nil,
        onFailure: ((SyncError) -> Void)? = nil
    ) {
        self.silent = silent
        self.validate = validate
        self.parse = parse
        self.add = add
        self.remove = remove
        self.merge = merge
        self.sort = sort
        self.wait = wait
        self.patch = patch
        self.reset = reset
        if let url { self.url = url }
        if let body { self.body = body }
        if !query.isEmpty { self.query = query }
        if !headers.isEmpty { self.headers = headers }
        self.emulateHTTP = emulateHTTP
        self.emulateJSON = emulateJSON
        if let at { self.at = at }
        if let timeout { self.timeout = timeout }
        if !custom.isEmpty { self.custom = custom }
        if let onValidationError { self.onValidationError = onValidationError }
        if let onSuccess { self.onSuccess = onSuccess }
        if let onFailure { self.onFailure = onFailure }
    }

    /// The custom value stored under `key`.
    ///
    /// ```swift
    /// note.on("change") { event in print(event.options["source"] ?? nil) }
    /// ```
    public subscript(key: String) -> JSONValue? {
        get { custom[key] }
        set { custom[key] = newValue }
    }

    /// Returns a copy with the given flags applied on top.
    func with(silent: Bool, validate: Bool?) -> Options {
        var copy = self
        if silent { copy.silent = true }
        if let validate { copy.validate = validate }
        return copy
    }
}
