/// The options of one collection update (`add`, `set`, `remove`, `reset`, `sort`), passed
/// on to the hooks and events it causes.
///
/// It holds the ``ChangeOptions`` that the update applies to the models it builds and
/// merges (``change``); ``silent``, ``validate``, ``parse`` and ``custom`` read and write
/// those. See ``ChangeOptions`` for how Keel splits Backbone's `options` by concern.
///
/// ```swift
/// notes.set(incoming, options: UpdateOptions(sort: false, custom: ["source": "socket"]))
/// ```
public struct UpdateOptions {
    /// For `set`: add models that are not in the collection yet; `nil` means yes.
    public var add: Bool?
    /// For `set`: remove models that are not in the input; `nil` means yes.
    public var remove: Bool?
    /// For `set` and `add`: merge attributes into models that are already present; `nil`
    /// means the call's default (yes for `set`, no for `add`).
    public var merge: Bool?
    /// For `add` and `set`: the position to insert at; negative counts from the end.
    public var at: Int?
    /// For `add` and `set`: `false` keeps a comparator from sorting.
    public var sort: Bool?
    /// The options for the attribute changes of the models the update builds or merges,
    /// carried by its events.
    public var change = ChangeOptions()
    /// Internal: the attributes a collection initializer builds its first models from.
    var initialAttributes: [Attributes]?

    /// Suppresses every event of the update (``ChangeOptions/silent``).
    public var silent: Bool {
        get { change.silent }
        set { change.silent = newValue }
    }
    /// Whether to validate new and merged models (``ChangeOptions/validate``).
    public var validate: Bool? {
        get { change.validate }
        set { change.validate = newValue }
    }
    /// Whether the input goes through the collection's and the models' `parse` first
    /// (``ChangeOptions/parse``).
    public var parse: Bool? {
        get { change.parse }
        set { change.parse = newValue }
    }
    /// Custom values for your own hooks and listeners (``ChangeOptions/custom``).
    public var custom: JSONObject {
        get { change.custom }
        set { change.custom = newValue }
    }
    /// Where the list being read came from, when it is a fetch's answer
    /// (``ChangeOptions/responseContext``), for ``Collection/parse(_:options:)``.
    ///
    /// ```swift
    /// override func parse(_ response: JSONValue, options: UpdateOptions) -> [Attributes]? {
    ///     guard options.responseContext?.response.status == 200 else { return nil }
    ///     return response.arrayValue?.compactMap(\.objectValue)
    /// }
    /// ```
    public var responseContext: ResponseContext? {
        get { change.responseContext }
        set { change.responseContext = newValue }
    }
    /// Called instead of emitting `invalid` and `error` when a model fails validation
    /// (``ChangeOptions/onValidationError``).
    public var onValidationError: ((Model, ValidationError, ChangeOptions) -> Void)? {
        get { change.onValidationError }
        set { change.onValidationError = newValue }
    }

    /// Creates options with every flag at its default.
    ///
    /// ```swift
    /// let options = UpdateOptions()
    /// ```
    public init() {}

    /// Creates options.
    ///
    /// ```swift
    /// let options = UpdateOptions(remove: false, parse: true)
    /// ```
    ///
    /// - Parameters:
    ///   - add: Add models that are not present; `nil` for the call's default.
    ///   - remove: Remove models that are not in the input; `nil` for the call's default.
    ///   - merge: Merge into present models; `nil` for the call's default.
    ///   - at: Where to insert new models.
    ///   - sort: `false` keeps a comparator from sorting.
    ///   - silent: Suppresses events.
    ///   - validate: Whether to validate models.
    ///   - parse: Whether to run `parse` on the input first.
    ///   - custom: Custom values for hooks and listeners.
    ///   - onValidationError: Called instead of emitting `invalid` and `error`.
    public init(
        add: Bool? = nil,
        remove: Bool? = nil,
        merge: Bool? = nil,
        at: Int? = nil,
        sort: Bool? = nil,
        silent: Bool = false,
        validate: Bool? = nil,
        parse: Bool? = nil,
        custom: JSONObject = [:],
        onValidationError: ((Model, ValidationError, ChangeOptions) -> Void)? = nil
    ) {
        self.add = add
        self.remove = remove
        self.merge = merge
        self.at = at
        self.sort = sort
        change = ChangeOptions(
            silent: silent,
            validate: validate,
            parse: parse,
            custom: custom,
            onValidationError: onValidationError
        )
    }

    /// Creates update options that apply the given change options to the models.
    ///
    /// ```swift
    /// let options = UpdateOptions(ChangeOptions(custom: ["source": "form"]))
    /// ```
    ///
    /// - Parameter change: The options for the models' attribute changes.
    public init(_ change: ChangeOptions) {
        self.change = change
    }

    /// The custom value stored under `key`.
    ///
    /// ```swift
    /// var options = UpdateOptions()
    /// options["source"] = "socket"
    /// ```
    public subscript(key: String) -> JSONValue? {
        get { change[key] }
        set { change[key] = newValue }
    }
}
