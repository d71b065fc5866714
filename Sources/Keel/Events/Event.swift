/// One event, as delivered to every handler registered for it.
///
/// Backbone passes a different argument list for each event; Keel delivers one value whose
/// properties carry those arguments. Which ones are set depends on the event:
///
/// | event | properties |
/// |---|---|
/// | `change:<attribute>` | ``model``, ``value`` (the attribute's new value, `nil` when unset) |
/// | `change` | ``model`` |
/// | `changeId` | ``model``, ``previousID`` |
/// | `invalid`, `error` (validation) | ``model`` or ``collection``, ``error``, ``validationError`` |
/// | `add`, `remove` | ``model``, ``collection``, ``index`` |
/// | `update` | ``collection``, ``changes`` |
/// | `reset` | ``collection``, ``previousModels`` |
/// | `sort` | ``collection`` |
/// | `destroy` | ``model``, ``collection`` |
/// | `request` | ``model`` or ``collection``, ``request`` |
/// | `sync` | ``model`` or ``collection``, ``request``, ``response`` |
/// | `error` (sync) | ``model`` or ``collection``, ``request``, ``error`` (a ``SyncError``) |
/// | custom (`trigger(_:_:)`) | ``value``, ``arguments`` |
///
/// Every event carries the ``options`` of the call that caused it, so custom flags reach
/// listeners.
///
/// ```swift
/// note.on("change:title") { event in
///     print("title is now", event.value ?? nil)
/// }
/// ```
public struct Event {
    /// The event's name, such as `"change:title"` or `"add"`.
    public let name: String
    /// The model the event is about.
    public let model: Model?
    /// The new value for `change:<attribute>`, or the first argument of a custom event.
    public let value: JSONValue?
    /// The options when they are not the defaults, the collection, the index and the rarer
    /// properties: `nil` for the most frequent events (`change:<attribute>`, `change` and custom
    /// ones of a call without options), which then destroy no reference for them.
    ///
    /// Name, model, value and this context are what the compiler counts as six fields, the
    /// most it destroys one by one, inline, skipping the ones it knows are `nil`: a seventh (the
    /// options' flags, an index of its own) made it destroy every event through the value
    /// witness, a call that tests every field. The index shares the context's field: the
    /// compiler counts an enum case's reference and integer as one field.
    @usableFromInline let context: Context?

    /// The options of the call that caused the event.
    @inlinable public var options: ChangeOptions {
        guard case .some = context else { return ChangeOptions() }
        return optionsInContext
    }
    /// ``options`` when the event has a context.
    @usableFromInline var optionsInContext: ChangeOptions {
        switch context {
        case .none, .collection, .collectionAt: return ChangeOptions()
        case .extras(let extras): return ChangeOptions(extras: extras, flags: ChangeFlags())
        case .flags(let flags): return ChangeOptions(extras: nil, flags: flags)
        case .details(let details), .detailsAt(let details, _): return details.options
        }
    }
    /// The collection the event is about, or the model's collection for `destroy`.
    public var collection: (any ModelCollection)? {
        switch context {
        case .none, .extras, .flags: return nil
        // Kept as the emitter it is, in one word; it was given as a `ModelCollection`.
        case .collection(let collection), .collectionAt(let collection, _):
            return collection as? any ModelCollection
        case .details(let details), .detailsAt(let details, _): return details.collection
        }
    }
    /// The model's position, for `add` (only when an `at` index was given) and `remove`.
    public var index: Int? {
        switch context {
        case .collectionAt(_, let index), .detailsAt(_, let index): return index
        case .none, .collection, .extras, .flags, .details: return nil
        }
    }
    /// Whether ``collection`` is `other`, tested without copying the reference out, which
    /// would retain and release the collection.
    @inline(__always)
    func isAbout(collection other: AnyObject) -> Bool {
        switch context {
        case .none, .extras, .flags: return false
        case .collection(let collection), .collectionAt(let collection, _): return collection === other
        case .details(let details), .detailsAt(let details, _): return details.collection === other
        }
    }
    /// The rarely set properties, when the event has any.
    private var details: Details? {
        switch context {
        case .details(let details), .detailsAt(let details, _): return details
        case .none, .collection, .collectionAt, .extras, .flags: return nil
        }
    }

    /// All arguments of a custom event: ``value`` and any further ones.
    public var arguments: [JSONValue] {
        if let arguments = details?.arguments, !arguments.isEmpty { return arguments }
        return value.map { [$0] } ?? []
    }
    /// The model's id before the change, for `changeId`.
    public var previousID: JSONValue? { details?.previousID }
    /// The error, for `error` and `invalid`.
    public var error: (any Error)? { details?.error }
    /// What an `update` changed.
    public var changes: CollectionChanges? { details?.changes }
    /// The models a collection held before a `reset`.
    public var previousModels: [Model]? { details?.previousModels }
    /// The request, for `request`, `sync` and sync `error` events.
    public var request: SyncRequest? { details?.request }
    /// The backend's response, for `sync`.
    public var response: SyncResponse? { details?.response }
    /// For a `change:<relation>` or `change` of a model that a related model's change caused:
    /// the related model (an invite whose email changed, one added or removed).
    ///
    /// ```swift
    /// user.on("change:invites") { event in print(event.nestedModel?["email"] ?? "") }
    /// ```
    public var nestedModel: Model? { options.nested?.model }
    /// For a change caused by a related model: its path in the owner, such as `invites[1]`
    /// (`invites` when it was removed).
    ///
    /// ```swift
    /// user.on("change") { event in print(event.nestedPath ?? "own attributes") }
    /// ```
    public var nestedPath: String? { options.nested?.path }

    /// Creates an event.
    ///
    /// ```swift
    /// let event = Event(name: "ping", value: 1)
    /// ```
    public init(
        name: String,
        model: Model? = nil,
        collection: (any ModelCollection)? = nil,
        value: JSONValue? = nil,
        arguments: [JSONValue] = [],
        previousID: JSONValue? = nil,
        error: (any Error)? = nil,
        index: Int? = nil,
        changes: CollectionChanges? = nil,
        previousModels: [Model]? = nil,
        request: SyncRequest? = nil,
        response: SyncResponse? = nil,
        options: ChangeOptions = ChangeOptions()
    ) {
        self.name = name
        self.model = model
        self.value = value ?? arguments.first
        // Each optional is tested with a pattern: comparing a non-`Equatable` optional with
        // `nil` copied it (a `SyncRequest` is large), several times per event.
        var hasDetails = arguments.count > 1
        if case .some = previousID { hasDetails = true }
        if case .some = error { hasDetails = true }
        if case .some = changes { hasDetails = true }
        if case .some = previousModels { hasDetails = true }
        if case .some = request { hasDetails = true }
        if case .some = response { hasDetails = true }
        guard hasDetails else {
            // A collection event without options, the common one, builds its context directly.
            if let collection, options.hasDefaultValues {
                if let index {
                    context = .collectionAt(collection, index: index)
                } else {
                    context = .collection(collection)
                }
                return
            }
            context = Context(collection: collection, options: options)?.at(index) ?? Context(index: index)
            return
        }
        context = Context.details(
            Details(
                options: options,
                collection: collection,
                arguments: arguments.count > 1 ? arguments : [],
                previousID: previousID,
                error: error,
                changes: changes,
                previousModels: previousModels,
                request: request,
                response: response
            )
        )
        .at(index)
    }

    /// A custom event with one argument (or none), as `trigger` builds it: only the name and
    /// the value are set, without evaluating the defaults of the public initializer.
    init(name: consuming String, argument: consuming JSONValue?) {
        self.name = name
        model = nil
        value = argument
        context = nil
    }

    /// A custom event with any number of arguments, as the variadic `trigger` builds it.
    init(name: String, arguments: [JSONValue]) {
        guard arguments.count > 1 else {
            self.init(name: name, argument: arguments.first)
            return
        }
        self.init(name: name, value: arguments[0], arguments: arguments)
    }

    /// A model's `change:<attribute>` or `change` event, built without evaluating the
    /// defaults of the public initializer's other parameters, which a `set` pays for on
    /// every event.
    init(changeNamed name: String, model: Model, value: JSONValue?, options: consuming ChangeOptions) {
        self.name = name
        self.model = model
        self.value = value
        context = Context(options: options)
    }

    /// A model's `change:<attribute>` or `change` event with a context made from the options of
    /// its `set` (``Context/init(options:)``), which the events of one `set` share.
    init(changeNamed name: String, model: Model, value: JSONValue?, context: Context?) {
        self.name = name
        self.model = model
        self.value = value
        self.context = context
    }

    /// A collection's event about `model` at `index`, with a context that the events of one
    /// call share (``Context/init(collection:options:)``): a call that fires many, such as an
    /// `add` or a `remove` of many models with options, builds the context once.
    init(name: String, model: Model, index: Int?, context: Context?) {
        self.name = name
        self.model = model
        value = nil
        guard let index else {
            self.context = context
            return
        }
        self.context = context?.at(index) ?? Context(index: index)
    }

    /// What an event carries besides its name, model, value and index, in one reference: the
    /// options when they are not the defaults, the collection, and the rarer properties.
    ///
    /// An event of a call without options and without a collection carries none
    /// (`Context?.none`); one of a collection with default options carries the collection
    /// itself, and one with options whose flags are the defaults carries their out-of-line
    /// part itself, so that neither allocates.
    @usableFromInline enum Context {
        /// The collection, with default options and no rarer property.
        case collection(EventEmitter)
        /// The collection and the index, with default options and no rarer property.
        case collectionAt(EventEmitter, index: Int)
        /// The options' out-of-line part (``ChangeOptions/extras``), their flags being the
        /// defaults; no collection and no rarer property.
        case extras(ChangeOptions.Extras)
        /// The options' flags, without an out-of-line part, collection or rarer property: what
        /// every change event of a collection's `set(parse: true)` carries, without an allocation.
        case flags(ChangeFlags)
        /// Anything else, without an index.
        case details(Details)
        /// Anything else, with an index: details that the events of one call share.
        case detailsAt(Details, index: Int)

        /// The context of an event with `options` and no collection or rarer property:
        /// `nil` for the default options.
        @inline(__always)
        init?(options: consuming ChangeOptions) {
            switch (options.hasDefaultFlags, options.extras) {
            case (true, nil): return nil
            case (true, let extras?): self = .extras(extras)
            case (false, nil): self = .flags(options.flags)
            case (false, .some): self = Self.details(options: options)
            }
        }

        /// The details of an event that has only options, with flags and an out-of-line part:
        /// out of line, so that the change events that inline ``init(options:)`` do not carry
        /// the allocation.
        @inline(never)
        private static func details(options: ChangeOptions) -> Context {
            .details(Details(options: options))
        }

        /// The context of an event of `collection` (if any) with `options` and no rarer
        /// property: what the events of one collection call share.
        init?(collection: (any ModelCollection)?, options: ChangeOptions) {
            guard let collection else {
                self.init(options: options)
                return
            }
            if options.hasDefaultValues {
                self = .collection(collection)
            } else {
                self = .details(Details(options: options, collection: collection))
            }
        }

        /// The context of an event with an index and nothing else: `nil` without one.
        init?(index: Int?) {
            guard let index else { return nil }
            self = .detailsAt(Details(options: ChangeOptions()), index: index)
        }

        /// This context with the index `index`, or as it is for `nil`.
        @inline(__always)
        func at(_ index: Int?) -> Context {
            guard let index else { return self }
            switch self {
            case .collection(let collection), .collectionAt(let collection, _):
                return .collectionAt(collection, index: index)
            case .details(let details), .detailsAt(let details, _):
                return .detailsAt(details, index: index)
            case .extras(let extras):
                return .detailsAt(Details(options: ChangeOptions(extras: extras, flags: ChangeFlags())), index: index)
            case .flags(let flags):
                return .detailsAt(Details(options: ChangeOptions(extras: nil, flags: flags)), index: index)
            }
        }
    }

    /// The options, collection and rarer properties of an event that has more than one of
    /// them, or options with flags.
    @usableFromInline final class Details {
        let options: ChangeOptions
        let collection: (any ModelCollection)?
        /// The arguments when there are several; a single one is ``Event/value``.
        let arguments: [JSONValue]
        let previousID: JSONValue?
        let error: (any Error)?
        let changes: CollectionChanges?
        let previousModels: [Model]?
        let request: SyncRequest?
        let response: SyncResponse?

        /// Creates the details of an event; what is not given is not set.
        init(
            options: ChangeOptions,
            collection: (any ModelCollection)? = nil,
            arguments: [JSONValue] = [],
            previousID: JSONValue? = nil,
            error: (any Error)? = nil,
            changes: CollectionChanges? = nil,
            previousModels: [Model]? = nil,
            request: SyncRequest? = nil,
            response: SyncResponse? = nil
        ) {
            self.options = options
            self.collection = collection
            self.arguments = arguments
            self.previousID = previousID
            self.error = error
            self.changes = changes
            self.previousModels = previousModels
            self.request = request
            self.response = response
        }
    }

    /// The validation errors, when ``error`` is a ``ValidationError`` or a server's
    /// ``SyncError/validationFailed(_:status:)``.
    ///
    /// ```swift
    /// note.on("invalid") { event in print(event.validationError?.messages ?? []) }
    /// ```
    public var validationError: ValidationError? {
        (error as? ValidationError) ?? (error as? SyncError)?.validationError
    }

    /// The model, cast to a model subclass.
    ///
    /// ```swift
    /// notes.on("add") { event in print(event.model(as: Note.self)?.title ?? "") }
    /// ```
    ///
    /// - Parameter type: The subclass to cast to.
    /// - Returns: The model, or `nil` when there is none or it is of another class.
    public func model<M: Model>(as type: M.Type) -> M? { model as? M }

    /// The sync failure, when ``error`` is a ``SyncError``.
    ///
    /// ```swift
    /// note.on("error") { event in print(event.syncError?.status ?? 0) }
    /// ```
    public var syncError: SyncError? { error as? SyncError }
}
