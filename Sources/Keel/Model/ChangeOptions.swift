/// The options of one attribute change, passed on to the hooks and events it causes.
///
/// Backbone passes one mutable `options` object through `set`, hooks and events. Keel
/// splits it by concern: ``ChangeOptions`` for attribute changes (`set`, `unset`, `clear`,
/// model construction), ``UpdateOptions`` for collection updates and ``SyncOptions`` for
/// server calls. Each of the larger ones holds the smaller: a collection update changes
/// the attributes of the models it merges with its ``UpdateOptions/change`` options, and a
/// save applies the server's answer with its ``SyncOptions/change`` options. Every event
/// carries the change options of the call that caused it, so ``custom`` values reach
/// listeners.
///
/// Values that Backbone writes *into* the options for listeners (`index`, `changes`,
/// `previousModels`, `validationError`) are properties of ``Event`` instead.
///
/// Most methods take the common flags as parameters too, so you rarely build one by hand:
///
/// ```swift
/// note.set(["title": "Draft"], silent: true)
/// note.set(["title": ""], options: ChangeOptions(custom: ["source": "form"]))
/// ```
public struct ChangeOptions {
    /// Suppresses the events and validation-error reporting of the call.
    ///
    /// An invalid change is still rejected when silent; the call's result says so.
    public var silent: Bool {
        get { flags.isSet(ChangeFlags.silent) }
        set { flags.set(ChangeFlags.silent, to: newValue) }
    }
    /// Whether to run ``Model/validate(_:options:)``; `nil` means the call's default.
    ///
    /// Keel validates every change by default (ISModel's rule); pass `false` to skip
    /// validation for one call. Construction validates only with `true`.
    public var validate: Bool? {
        get { flags.optional(at: ChangeFlags.validate) }
        set { flags.setOptional(at: ChangeFlags.validate, to: newValue) }
    }
    /// Whether the input is in the server's form and goes through `parse` first; `nil`
    /// means the call's default (no for `set`, `add` and initializers; yes for `fetch` and
    /// `save` responses).
    public var parse: Bool? {
        get { flags.optional(at: ChangeFlags.parse) }
        set { flags.setOptional(at: ChangeFlags.parse, to: newValue) }
    }
    /// Custom values for your own hooks and listeners (Backbone's extra option keys).
    public var custom: JSONObject {
        get { extras?.custom ?? [:] }
        set { mutableExtras().custom = newValue }
    }
    /// ISModel's validation-error handler: called instead of emitting `invalid` and `error`
    /// when validation fails.
    public var onValidationError: ((Model, ValidationError, ChangeOptions) -> Void)? {
        get { extras?.onValidationError }
        set { mutableExtras().onValidationError = newValue }
    }
    /// Where the server data of this change came from, when it is a sync's answer: the request,
    /// the response and the route's parameters, for ``Model/parse(_:options:)`` and the
    /// `change` listeners; `nil` outside a sync (`parse: true` given to an initializer or `set`).
    ///
    /// ```swift
    /// override func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? {
    ///     guard options.responseContext?.response.status != 202 else { return nil }
    ///     return response.objectValue
    /// }
    /// ```
    public var responseContext: ResponseContext? {
        get { extras?.responseContext }
        set { mutableExtras().responseContext = newValue }
    }
    /// Internal: the change removes the given keys (``Model/unset(_:silent:validate:options:)``).
    var unset: Bool {
        get { flags.isSet(ChangeFlags.unset) }
        set { flags.set(ChangeFlags.unset, to: newValue) }
    }
    /// Internal: with ``parse``, the input is in app form already: a fetch, a collection or an
    /// identity map applied the wire format to the whole body, so a model runs only its `parse`.
    var wireFormatApplied: Bool {
        get { flags.isSet(ChangeFlags.wireFormatApplied) }
        set { flags.set(ChangeFlags.wireFormatApplied, to: newValue) }
    }
    /// Internal: whether rejected models are reported as `invalid`, when that differs from
    /// ``silent`` (a `reset` adds silently but reports invalid models unless it is silent).
    var reportsInvalid: Bool? {
        get { flags.optional(at: ChangeFlags.reportsInvalid) }
        set { flags.setOptional(at: ChangeFlags.reportsInvalid, to: newValue) }
    }
    /// Internal: the forwarding handler of the collection creating a model, which makes the
    /// collection the model's ``Model/collection`` from the start of `init`.
    var collectionForwarder: EventHandler? {
        get { extras?.collectionForwarder }
        set { mutableExtras().collectionForwarder = newValue }
    }
    /// Internal: how many records the update building a model with these options builds in
    /// all, so that an identity map's factory makes room for them once; `0` when unknown.
    ///
    /// Not carried by a copy of the extras: it describes the one update that set it, and the
    /// map takes it from the storage that update's models share
    /// (``IdentityMap/findOrInsert(_:collection:attributes:options:)``).
    var expectedBuildCount: Int {
        get { extras?.expectedBuildCount ?? 0 }
        set { mutableExtras().expectedBuildCount = newValue }
    }

    /// Builds the related models (``HasMany``, ``HasOne``, ``BelongsTo``) of a model being created,
    /// and theirs in turn, instead of their initializers: how an identity map keeps one instance
    /// per record for related records too.
    ///
    /// Models keep it for later merges.
    ///
    /// ```swift
    /// var options = ChangeOptions()
    /// options.relatedModelFactory = { type, resource, attributes, options in
    ///     type.init(attributes, options: options)
    /// }
    /// ```
    public var relatedModelFactory: RelatedModelFactory? {
        get { extras?.relatedModelBuilder?.factory }
        set { relatedModelBuilder = newValue.map { RelatedModelBuilder(factory: $0) } }
    }

    /// Internal: ``relatedModelFactory`` in the one object that the models built with these
    /// options keep (``ModelExtras/relatedModelBuilder``).
    var relatedModelBuilder: RelatedModelBuilder? {
        get { extras?.relatedModelBuilder }
        set { mutableExtras().relatedModelBuilder = newValue }
    }

    /// Internal: called by a model being created, with its attributes, once it exists and
    /// before it builds its related models: how an identity map hands a record that links
    /// back to the model (a comment's article inside that article) the instance being built.
    var willBuildRelated: ((Model, Attributes) -> Void)? {
        get { extras?.willBuildRelated }
        set { mutableExtras().willBuildRelated = newValue }
    }

    /// Internal: the related model whose change caused this one on its owner, and its path
    /// (`invites[1]`).
    var nested: (model: Model, path: String)? {
        get { extras?.nested }
        set { mutableExtras().nested = newValue }
    }

    /// ``silent``, ``validate``, ``parse`` and the internal flags, packed: zero for the defaults.
    @usableFromInline var flags = ChangeFlags()

    /// The options that hold references, kept out of line: most calls set none of them, so
    /// copying options (into every event) copies a few flags and one `nil`.
    ///
    /// Usable from inlinable code so that ``init()`` inlines whole: a caller then knows the
    /// options hold nothing to release.
    @usableFromInline var extras: Extras?

    /// The storage of the options that hold references.
    @usableFromInline final class Extras {
        var custom: JSONObject = [:]
        var onValidationError: ((Model, ValidationError, ChangeOptions) -> Void)?
        var collectionForwarder: EventHandler?
        var nested: (model: Model, path: String)?
        var relatedModelBuilder: RelatedModelBuilder?
        var willBuildRelated: ((Model, Attributes) -> Void)?
        var responseContext: ResponseContext?
        /// The document a read's records come from (``ChangeOptions/readDocument``).
        var readDocument: JSONObject?
        /// The document a relation's record was read from (``ChangeOptions/linkedDocument``).
        var linkedDocument: JSONObject?
        /// What ``ChangeOptions/relatedBuildOptions`` derived from these extras, kept.
        var relatedBuildOptions: ChangeOptions?
        /// The extras ``ChangeOptions/linkingRecords`` derived from these, kept.
        var linkingExtras: Extras?
        /// The relations of the class an identity map builds a model of, resolved by the map.
        var classRelations: ClassRelations?
        /// See ``ChangeOptions/expectedBuildCount``.
        var expectedBuildCount = 0

        init() {}

        func copy() -> Extras {
            let copy = Extras()
            copy.custom = custom
            copy.onValidationError = onValidationError
            copy.collectionForwarder = collectionForwarder
            copy.nested = nested
            copy.relatedModelBuilder = relatedModelBuilder
            copy.willBuildRelated = willBuildRelated
            copy.responseContext = responseContext
            copy.readDocument = readDocument
            copy.linkedDocument = linkedDocument
            copy.classRelations = classRelations
            return copy
        }
    }

    /// Whether `other` is a copy of these options.
    ///
    /// A copy has the same flags and the very same out-of-line values. An identity map that
    /// derives options per model reuses what it derived for the last copy it saw.
    @inline(__always)
    func isCopy(of other: ChangeOptions) -> Bool {
        flags.bits == other.flags.bits && extras === other.extras
    }

    /// The extras, created or copied so that this value owns them alone.
    mutating func mutableExtras() -> Extras {
        if isKnownUniquelyReferenced(&extras), let current = extras {
            // What was derived from the extras no longer matches them.
            current.relatedBuildOptions = nil
            current.linkingExtras = nil
            return current
        }
        let unique = extras?.copy() ?? Extras()
        extras = unique
        return unique
    }

    /// Creates options with every flag at its default: what a call without options uses.
    ///
    /// A separate initializer so that the default argument of every method is cheap: it is
    /// inlinable, so a caller builds the options in place and knows there is nothing to
    /// release afterwards.
    ///
    /// ```swift
    /// let options = ChangeOptions()
    /// ```
    @inlinable public init() {}

    /// Creates options.
    ///
    /// ```swift
    /// let options = ChangeOptions(silent: true, custom: ["amazing": true])
    /// ```
    ///
    /// - Parameters:
    ///   - silent: Suppresses events and error reporting.
    ///   - validate: Whether to validate; `nil` for the call's default.
    ///   - parse: Whether to run `parse` on the input first; `nil` for the call's default.
    ///   - custom: Custom values for hooks and listeners.
    ///   - onValidationError: Called instead of emitting `invalid` and `error`.
    public init(
        silent: Bool = false,
        validate: Bool? = nil,
        parse: Bool? = nil,
        custom: JSONObject = [:],
        onValidationError: ((Model, ValidationError, ChangeOptions) -> Void)? = nil
    ) {
        self.silent = silent
        self.validate = validate
        self.parse = parse
        if !custom.isEmpty { self.custom = custom }
        if let onValidationError { self.onValidationError = onValidationError }
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

    /// Creates options of `flags` whose out-of-line options are `extras`: how an ``Event``
    /// that kept the two apart gives its options back.
    init(extras: Extras?, flags: ChangeFlags) {
        self.extras = extras
        self.flags = flags
    }

    /// Whether every option has its default value, as in `ChangeOptions()`: inlinable, so that
    /// for a defaulted options argument it is `true` at compile time in the caller.
    @inlinable var hasDefaultValues: Bool {
        hasDefaultFlags && extras == nil
    }

    /// Whether every flag (every option kept inline) has its default value, whatever the
    /// out-of-line options (``extras``) hold.
    @inlinable var hasDefaultFlags: Bool { flags.areDefaults }

    /// Returns a copy with the given flags applied on top.
    func with(silent: Bool, validate: Bool?) -> ChangeOptions {
        var copy = self
        if silent { copy.silent = true }
        if let validate { copy.validate = validate }
        return copy
    }
}

/// Builds a related model: its class, the resource it belongs to (the class's `urlRoot`, or
/// `/<relation path>`), its attributes and the options to build it with.
///
/// ```swift
/// let factory: RelatedModelFactory = { type, resource, attributes, options in
///     type.init(attributes, options: options)
/// }
/// ```
public typealias RelatedModelFactory = (
    _ type: Model.Type, _ resource: String, _ attributes: Attributes, _ options: ChangeOptions
) -> Model
