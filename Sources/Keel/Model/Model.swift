public import Foundation
public import Observation

/// A record with attributes, change events and validation: Backbone's `Model`.
///
/// Subclass it for each kind of record and override the class-level hooks:
///
/// ```swift
/// final class Note: Model {
///     override class var defaults: Attributes { ["title": "", "done": false] }
///     override class var urlRoot: String? { "/notes" }
///
///     override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
///         let title = attributes["title"]?.stringValue ?? ""
///         return title.count < 5 ? ["title": ["Title cannot be less than 5 characters"]] : nil
///     }
/// }
///
/// let note = Note(["title": "Groceries"])
/// note.on("change:title") { event in print("title:", event.value ?? nil) }
/// note["title"] = "Weekly groceries"
/// ```
///
/// A model is not `Sendable`: it lives in the isolation domain that created it (the main
/// actor, a custom actor, or a task), and its events run there, synchronously.
///
/// ## Overridable hooks
/// - `idAttribute`, ``cidPrefix``, ``defaults``, `urlRoot`: class-level settings.
/// - ``initialize(_:options:)``: runs at the end of construction.
/// - ``validate(_:options:)``: accepts or rejects every change.
/// - ``parse(_:options:)``: turns a server response into attributes.
/// - ``toJSON(options:)``: turns the model into the body sent to a server.
open class Model: EventEmitter, Observable {
    // MARK: - Class-level settings

    /// The attribute that holds the model's id; `"id"` unless a subclass overrides it.
    ///
    /// ```swift
    /// final class User: Model {
    ///     override class var idAttribute: String { "name" }
    /// }
    /// ```
    open class var idAttribute: String { "id" }

    /// The prefix of client ids; `"c"` unless a subclass overrides it.
    ///
    /// ```swift
    /// final class Draft: Model {
    ///     override class var cidPrefix: String { "draft" }
    /// }
    /// ```
    open class var cidPrefix: String { "c" }

    /// The attributes a new model starts with; explicit attributes override them.
    ///
    /// Evaluated for every new model, so a computed value (a date, a fresh identifier) is
    /// fresh each time. Defaults fill keys that are absent, not keys that hold `null`.
    ///
    /// ```swift
    /// override class var defaults: Attributes { ["title": "", "done": false] }
    /// ```
    open class var defaults: Attributes { Attributes() }

    /// The collection URL of models of this class when they are not in a collection, such
    /// as `"/notes"`.
    ///
    /// ```swift
    /// override class var urlRoot: String? { "/notes" }
    /// ```
    open class var urlRoot: String? { nil }

    /// The name of one record of this class on the server.
    ///
    /// NSRails' `remoteModelName`, Rails' `model_name.element`. It is the root key of a format
    /// that wraps records (`{"note": {…}}` for ``WireFormat/rails``) and names an owner in
    /// route parameters (`:note_id`).
    ///
    /// By default the class name in snake_case, without generic parameters or outer type
    /// names: `TodoItem` → `todo_item`. A format's ``RootWrapping/singular`` wins over it.
    ///
    /// ```swift
    /// final class BlogEntry: Model {
    ///     override class var resourceName: String { "post" }   // {"post": {…}}, /posts
    ///     override class var wireFormat: WireFormat { .rails }
    /// }
    /// ```
    open class var resourceName: String { Inflection.resourceName(of: self) }

    /// The name of a list of records of this class.
    ///
    /// NSRails' `remoteControllerName`. It is the root key of a wrapped list
    /// (`{"notes": […]}`), the segment of a URL nested under a parent (``BelongsTo`` with
    /// `nestsURL`) and, for a class whose format wraps records in a root key
    /// (``WireFormat/rails``) and that has no `urlRoot`, its default URL (`/notes`).
    ///
    /// By default the plural of ``resourceName`` with Rails' inflection for regular and common
    /// irregular English nouns (`person` → `people`, `category` → `categories`); override it
    /// for others.
    ///
    /// ```swift
    /// final class Cactus: Model {
    ///     override class var pluralResourceName: String { "cacti" }   // /cacti/3
    ///     override class var wireFormat: WireFormat { .rails }
    /// }
    /// ```
    open class var pluralResourceName: String { Inflection.pluralize(resourceName) }

    /// The base URL that relative URLs of models of this class resolve against, when
    /// neither the model nor its collection has one.
    ///
    /// ```swift
    /// override class var baseURL: URL? { URL(string: "https://api.example.com/v1") }
    /// ```
    open class var baseURL: URL? { nil }

    /// The backend models of this class use when neither the model nor its collection has one.
    ///
    /// ```swift
    /// override class var sync: (any Sync)? { AppBackend.shared }
    /// ```
    open class var sync: (any Sync)? { nil }

    /// How models of this class look on the wire; its collections inherit it.
    ///
    /// Backbone's plain JSON (``WireFormat/plain``) by default.
    ///
    /// ```swift
    /// override class var wireFormat: WireFormat { .rails }
    /// ```
    open class var wireFormat: WireFormat { .plain }

    /// Whether models of this class keep, as ``remoteAttributes``, the record they were
    /// loaded from in a list or parsed from with `parse: true`.
    ///
    /// NSRails kept it always; Keel does not by default, because a list of 100,000 records
    /// would then be held twice. The body of a model's own fetch, save or find is kept either
    /// way.
    ///
    /// ```swift
    /// override class var keepsRemoteAttributes: Bool { true }
    /// ```
    open class var keepsRemoteAttributes: Bool { false }

    /// The relations of this class's models: has-many collections, has-one and belongs-to
    /// models that live in attributes of the same name (see ``HasMany``).
    ///
    /// Resolved once per class, unlike ``defaults``: the list a class's first model with
    /// relations finds is the one Keel keeps for the class (an ``IdentityMap`` reads it once
    /// and hands it to every model it builds; a model built otherwise reads it only to learn
    /// whether the class has relations), so a class declares the same relations throughout.
    /// A subclass may declare its own, as Backbone-relational reads a model type's
    /// `relations` once, when the type is set up.
    ///
    /// ```swift
    /// static let invites = HasMany<Invite>("invites", encoding: .nestedAttributes)
    /// override class var relations: [any Relation] { [invites] }
    /// ```
    open class var relations: [any Relation] { [] }

    /// Path patterns for this class's requests: per method, named, and for its relations (see
    /// ``Routes``).
    ///
    /// A method's route wins over ``url()``; none by default.
    ///
    /// ```swift
    /// override class var routes: Routes { Routes("/users/:user_id/invites/:id", methods: [.create: "/users/:user_id/invites"]) }
    /// ```
    open class var routes: Routes { Routes() }

    // MARK: - State

    /// The number in the client id, which collections index models by; the prefix is the
    /// class's, so the text is built only when asked for.
    let cidNumber: Int

    // The state below opts out of run-time exclusivity checks: Keel never keeps a mutating
    // access to it open across a call into user code (handlers, hooks), so the checks
    // could never fire, and they cost about a tenth of every `set`.

    /// The current attributes, their keys in the order of ``layout``; replaced through
    /// ``replaceStorage(_:)``, which keeps the layout in step.
    @exclusivity(unchecked) final var storage: Attributes
    /// The keys of ``storage`` as a layout shared with the models that have the same keys.
    @exclusivity(unchecked) final var layout: AttributeLayout
    /// The cached id, refreshed only when a `set` names the id attribute.
    @exclusivity(unchecked) final var storedID: JSONValue?
    /// Whether the registrar has been created (``ObservationFlags/hasRegistrar``), where, and whether
    /// reads are not reported to Observation for now (``ObservationFlags/isUnobserved``).
    ///
    /// Flags of their own (they fit in the id's padding), because testing an optional of a type
    /// from a resilient module calls a value witness; one byte, so that an observed read tests
    /// both at once.
    @exclusivity(unchecked) final var observationFlags = ObservationFlags()
    /// Whether an ``IdentityMap`` has held the model in its table: the map keeps no reference
    /// count on it, so the model's deinit tells it (``leaveIdentityMaps()``).
    ///
    /// Declared here so that it fits in the id's padding with ``observationFlags``.
    @exclusivity(unchecked) final var isIdentityMapped = false
    /// Whether the smart `set` under way found or added this model (``SeenModels``): kept
    /// beside the model's other flags, in what would be padding.
    @exclusivity(unchecked) final var isMarkedSeen = false
    /// The slot the model was last given in a collection's removal slots (``ModelSlots``): a
    /// hint that those slots check against their own, as the model may be in several.
    ///
    /// 32 bits, declared here so that it fits in the id's padding beside ``observationFlags``: with
    /// the one-word ``storage``, that keeps the model object within malloc's 112-byte chunks
    /// (`MEMORY_PARTS=1 keel-bench`). A slot past its range is stored truncated, as a hint that
    /// misses.
    @exclusivity(unchecked) final var slotHint: Int32 = -1
    /// The bookkeeping of `set`; see ``changeRecord``.
    @exclusivity(unchecked) final var storedChangeRecord: ChangeRecord?
    /// The rarely used state; see ``extras``.
    @exclusivity(unchecked) final var storedExtras: ModelExtras?

    /// The forwarding handler of ``collection`` (``Collection/forwardingHandler``), through
    /// which the model refers to it without a `weak` reference: the collection clears the
    /// handler when its deinit starts.
    final var collectionForwarder: EventHandler?

    /// The model's Observation registrar, created by its first observable read, so that
    /// models nothing reads pay nothing for Observation; ``observationFlags`` say whether it
    /// exists (``registrar``).
    ///
    /// Kept in the model rather than in an object of its own, so that a read reaches it
    /// without loading another cache line: in `coll_get` (a million lookups over 100,000
    /// models) that load tripled the time of a lookup. It is read in place (``observe(_:)``);
    /// a copy costs a value-witness call and a retain and release of its storage. Raw
    /// storage rather than an optional, so that a model never observed stores and destroys
    /// only a word (``RegistrarStorage``).
    @exclusivity(unchecked) final var registrarStorage = RegistrarStorage()

    deinit {
        if isIdentityMapped { leaveIdentityMaps() }
        if observationFlags.contains(.hasRegistrar) { destroyRegistrar() }
    }

    // MARK: - Construction

    /// Creates a model from attributes, filling in the class's ``defaults``.
    ///
    /// No events fire during construction, and the model starts with no changes. It is not
    /// validated unless the options ask for it (`ChangeOptions(validate: true)`); if that
    /// validation fails, the model starts empty with ``validationError`` set.
    ///
    /// With `parse: true` the attributes are a record as the server sends it, and the model
    /// reads it as ``fetch(options:)`` reads a response: the class's ``wireFormat`` first (root
    /// key, wire names, roles, Drupal fields, JSON:API resources), then ``parse(_:options:)``.
    /// A record that does not fit the format goes to `parse` as it is.
    ///
    /// ```swift
    /// let note = Note(["title": "Groceries"])
    /// // A Rails note: root key removed, `due_at` read as `dueAt`.
    /// let parsed = Note(["note": ["title": "x", "due_at": "2026-12-01"]], options: ChangeOptions(parse: true))
    /// ```
    ///
    /// - Parameters:
    ///   - attributes: The initial attributes.
    ///   - options: `parse` reads the attributes as a server record first (the wire format,
    ///     then ``parse(_:options:)``); `validate` validates them.
    public required init(_ attributes: Attributes = [:], options: ChangeOptions = ChangeOptions()) {
        let type = Self.self
        cidNumber = EventEmitter.makeUniqueID()
        var attributes = consume attributes
        // Without `parse`, the defaults are merged before the model exists (the class's
        // `defaults` and `relations` do not see it); the relations are fetched after them, as
        // when parsing. A model without relations or validation then has its final storage
        // and layout before it exists, and stores them once.
        var relations: [any RelationImplementation]?
        if options.parse != true {
            let defaults = type.defaults
            if !defaults.isEmpty {
                attributes = Attributes(merging: consume defaults, with: consume attributes)
            }
            let classRelations = ResolvedRelations.implementations(of: type, options: options)
            if classRelations.isEmpty && options.validate != true {
                let layout = AttributeLayout.of(attributes)
                // Found by the layout's slot, which beats searching the keys.
                if let slot = layout.slot(of: type.idAttribute) {
                    storedID = Self.identifier(attributes.value(at: slot))
                }
                storage = attributes
                // Moved in: the layout is not used again, so it is stored without a retain.
                self.layout = consume layout
                // Stored before the model exists: nothing to release, and one retain.
                collectionForwarder = options.collectionForwarder
                super.init()
                initialize(attributes, options: options)
                return
            }
            relations = classRelations
        }
        storage = Attributes()
        layout = .empty
        super.init()
        if let forwarder = options.collectionForwarder { collectionForwarder = forwarder }
        if options.parse == true { attributes = parsedAttributes(attributes, options: options) }
        let classRelations = relations ?? ResolvedRelations.implementations(of: type, options: options)
        if !classRelations.isEmpty {
            makeRelationLinks(classRelations, builder: options.relatedModelBuilder)
        }
        // A model that fails its validation starts empty.
        if options.validate != true || !reportsInvalid(attributes, options: options) {
            if let links = relationLinks {
                options.willBuildRelated?(self, attributes)
                attributes = mergeRelations(attributes, into: links, options: options.relatedBuildOptions)
            }
            // The layout the previous model found is tried first, as for a model without
            // relations: models with relations are built many of one kind in a row too.
            let layout = AttributeLayout.of(attributes)
            if let slot = layout.slot(of: idAttribute) { storedID = Self.identifier(attributes.value(at: slot)) }
            storage = attributes
            self.layout = consume layout
        }
        initialize(attributes, options: options)
    }

    /// Runs at the end of construction; override it instead of an initializer.
    ///
    /// ```swift
    /// override func initialize(_ attributes: Attributes, options: ChangeOptions) {
    ///     on("change:title") { _ in print("retitled") }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - attributes: The attributes the model was created with, after defaults and parse.
    ///   - options: The options passed to the initializer.
    open func initialize(_ attributes: Attributes, options: ChangeOptions) {}

    // MARK: - Hooks

    /// Checks the attributes a change would produce; return errors to reject the change.
    ///
    /// Called with the complete prospective attributes whenever attributes change (unless
    /// the call passes `validate: false`), before saving, and by ``isValid(options:)``. The default
    /// accepts everything.
    ///
    /// ```swift
    /// override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
    ///     attributes["title"]?.stringValue?.isEmpty == false ? nil : ["title": ["can't be blank"]]
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - attributes: The attributes as they would be after the change.
    ///   - options: The options of the call.
    /// - Returns: `nil` (or an empty error) to accept the change.
    open func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? { nil }

    /// Converts a server response into attributes.
    ///
    /// The default accepts a JSON object as it is and returns `nil` (no attributes) for any
    /// other value. Override it to unwrap an envelope:
    ///
    /// ```swift
    /// override func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? {
    ///     response["note"]?.objectValue
    /// }
    /// ```
    ///
    /// Reading the answer of a sync, the options carry its ``ChangeOptions/responseContext``:
    /// the request, the response and the route's parameters.
    ///
    /// - Parameters:
    ///   - response: The response body, or the attributes given to the initializer with
    ///     `parse: true`.
    ///   - options: The options of the call.
    /// - Returns: The attributes to set, or `nil` for none.
    open func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? {
        response.objectValue
    }

    /// The representation sent to a server: by default a copy of the attributes.
    ///
    /// ```swift
    /// override func toJSON(options: ChangeOptions) -> Attributes {
    ///     attributes.filter { $0.key != "localOnly" }
    /// }
    /// ```
    ///
    /// - Parameter options: The options of the call.
    /// - Returns: The attributes to send.
    open func toJSON(options: ChangeOptions = ChangeOptions()) -> Attributes {
        observeAttributes()
        return storage
    }

    // MARK: - URLs

    /// The model's resource path, following ISModel's rules.
    ///
    /// - In a collection with a URL: the collection's URL, plus the percent-encoded id
    ///   unless the model is new.
    /// - Otherwise: `urlRoot`, plus the percent-encoded id unless the model is new.
    /// - Otherwise, the class's default route (``Routes/default``) filled from the model.
    /// - Otherwise, for the model of a ``HasOne``: its owner's URL plus the relation's name
    ///   (`/users/1/profile`, a singular resource, without an id).
    /// - Otherwise, with a ``BelongsTo`` declared with `nestsURL`: the parent's URL plus the
    ///   class's ``pluralResourceName``, plus the id (`/users/1/invites/7`).
    /// - Otherwise, when the wire format wraps records in a root key (``WireFormat/rails``):
    ///   `/` plus the class's ``pluralResourceName``, plus the id (`/notes/7`), as Rails'
    ///   `resources :notes` routes it.
    /// - Otherwise: an error.
    ///
    /// Exactly one `/` separates the parts. The id is encoded like JavaScript's
    /// `encodeURIComponent`, so `a/b` becomes `a%2Fb`, and always stays one segment under
    /// the collection: an id that is empty, `.` or `..` is refused, because `/notes/..`
    /// would address `/`. Override it for custom URLs.
    ///
    /// > Note: Backbone prefers `urlRoot` over the collection's URL; Keel follows ISModel
    /// > and prefers the collection's.
    ///
    /// ```swift
    /// let note = Note(["id": 7])   // urlRoot "/notes"
    /// try note.url()              // "/notes/7"
    /// ```
    ///
    /// - Returns: A path such as `/notes/7`, or an absolute URL string.
    /// - Throws: ``SyncError/missingURL(_:)`` when no rule above gives a URL; ``SyncError/unsafePathSegment(_:)`` when the id is empty, `.` or `..`.
    open func url() throws(SyncError) -> String {
        let base: String
        let format = collectionWireFormat ?? Self.wireFormat
        if let collectionURL, !collectionURL.isEmpty {
            base = collectionURL
        } else if let urlRoot, !urlRoot.isEmpty {
            base = urlRoot
        } else if let route = Self.routes.default {
            return format.suffixed(try routePath(route))
        } else if let singular = ownerResourcePath {
            return format.suffixed(singular)
        } else if let nested = parentResourcePath {
            base = nested
        } else if format.root.wrapsRequests {
            base = "/" + Self.pluralResourceName
        } else {
            throw .missingURL("\(type(of: self)) has no urlRoot and is not in a collection with a url")
        }
        guard !isNew, let id = storage[idAttribute] else { return format.suffixed(base) }
        return format.suffixed(try URLPath.recordPath(base, id: id))
    }

    /// The URL for fetching this model, when it differs from ``url()``; `nil` by default.
    ///
    /// ```swift
    /// override var fetchURL: String? { "/notes/\(id ?? nil)?expand=author" }
    /// ```
    open var fetchURL: String? { nil }

    /// The URL for creating this model, when it differs from ``url()``; `nil` by default.
    ///
    /// ```swift
    /// override var createURL: String? { "/users/\(userID)/notes" }
    /// ```
    open var createURL: String? { nil }

    /// The URL for updating this model, when it differs from ``url()``; `nil` by default.
    ///
    /// ```swift
    /// override var updateURL: String? { "/notes/\(id ?? nil)/edit" }
    /// ```
    open var updateURL: String? { nil }

    /// The URL for destroying this model, when it differs from ``url()``; `nil` by default.
    ///
    /// ```swift
    /// override var destroyURL: String? { "/notes/\(id ?? nil)/archive" }
    /// ```
    open var destroyURL: String? { nil }
}
