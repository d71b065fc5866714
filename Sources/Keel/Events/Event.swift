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
    /// The options of the call that caused the event.
    public let options: ChangeOptions
    /// The collection and index, or the rarer properties out of line; nothing for the most
    /// frequent events (`change:<attribute>`, `change`, custom ones), which then destroy no
    /// reference for them.
    private let context: Context

    /// The collection the event is about, or the model's collection for `destroy`.
    public var collection: (any ModelCollection)? {
        switch context {
        case .none: return nil
        case .collection(let collection, _): return collection
        case .details(let details): return details.collection
        }
    }
    /// The model's position, for `add` (only when an `at` index was given) and `remove`.
    public var index: Int? {
        switch context {
        case .none: return nil
        case .collection(_, let index): return index
        case .details(let details): return details.index
        }
    }
    /// Whether ``collection`` is `other`, tested without copying the reference out, which
    /// would retain and release the collection.
    @inline(__always)
    func isAbout(collection other: AnyObject) -> Bool {
        switch context {
        case .none: return false
        case .collection(let collection, _): return collection === other
        case .details(let details): return details.collection === other
        }
    }
    /// The rarely set properties, when the event has any.
    private var details: Details? {
        if case .details(let details) = context { return details }
        return nil
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
        self.options = options
        // Each optional is tested with a pattern: comparing a non-`Equatable` optional with
        // `nil` copied it (a `SyncRequest` is large), several times per event.
        var hasDetails = arguments.count > 1
        if case .some = previousID { hasDetails = true }
        if case .some = error { hasDetails = true }
        if case .some = changes { hasDetails = true }
        if case .some = previousModels { hasDetails = true }
        if case .some = request { hasDetails = true }
        if case .some = response { hasDetails = true }
        if hasDetails {
            context = .details(
                Details(
                    collection: collection,
                    index: index,
                    arguments: arguments.count > 1 ? arguments : [],
                    previousID: previousID,
                    error: error,
                    changes: changes,
                    previousModels: previousModels,
                    request: request,
                    response: response
                )
            )
        } else if case .none = collection, case .none = index {
            context = .none
        } else {
            context = .collection(collection, index: index)
        }
    }

    /// A custom event with one argument (or none), as `trigger` builds it: only the name and
    /// the value are set, without evaluating the defaults of the public initializer.
    init(name: String, argument: JSONValue?) {
        self.name = name
        model = nil
        value = argument
        options = ChangeOptions()
        context = .none
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
    init(changeNamed name: String, model: Model, value: JSONValue?, options: ChangeOptions) {
        self.name = name
        self.model = model
        self.value = value
        self.options = options
        context = .none
    }

    /// Where an event keeps its collection, index and rarer properties.
    private enum Context {
        /// Neither a collection nor an index nor any rarer property.
        case none
        /// A collection or an index, and no rarer property.
        case collection((any ModelCollection)?, index: Int?)
        /// At least one rarer property, with the collection and index.
        case details(Details)
    }

    /// The rarely set properties of an event.
    private final class Details {
        let collection: (any ModelCollection)?
        let index: Int?
        /// The arguments when there are several; a single one lives in ``Event/value``.
        let arguments: [JSONValue]
        let previousID: JSONValue?
        let error: (any Error)?
        let changes: CollectionChanges?
        let previousModels: [Model]?
        let request: SyncRequest?
        let response: SyncResponse?

        init(
            collection: (any ModelCollection)?,
            index: Int?,
            arguments: [JSONValue],
            previousID: JSONValue?,
            error: (any Error)?,
            changes: CollectionChanges?,
            previousModels: [Model]?,
            request: SyncRequest?,
            response: SyncResponse?
        ) {
            self.collection = collection
            self.index = index
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

/// What one collection `update` added, removed and merged.
///
/// ```swift
/// notes.on("update") { event in
///     print(event.changes?.added.count ?? 0, "added")
/// }
/// ```
public struct CollectionChanges {
    /// The models added, in the order they were added.
    public let added: [Model]
    /// The models removed.
    public let removed: [Model]
    /// The models that were matched by new attributes and merged (even when nothing changed).
    public let merged: [Model]

    /// Creates a change summary.
    ///
    /// ```swift
    /// let changes = CollectionChanges(added: [note], removed: [], merged: [])
    /// ```
    public init(added: [Model], removed: [Model], merged: [Model]) {
        self.added = added
        self.removed = removed
        self.merged = merged
    }
}
