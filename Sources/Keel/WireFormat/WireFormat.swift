/// How a model's records look on the wire: key names, which attributes travel which way,
/// root keys, the update verb, URL suffixes and field wrapping, applied in both directions
/// and for every verb, PATCH included.
///
/// A model class names its format in one line; its collections inherit it, a collection
/// can override it with ``Collection/wireFormat``, and one call with
/// ``SyncOptions/wireFormat``.
///
/// ```swift
/// final class Note: Model {
///     override class var urlRoot: String? { "/notes" }
///     override class var wireFormat: WireFormat { .rails }
/// }
/// ```
///
/// The app always sees its own names: attributes, ``AttributeKey``s, `Codable` bridging,
/// ``Model/toJSON(options:)`` and ``Model/parse(_:options:)`` use them, and the format maps
/// them on the way out (after `toJSON`) and on the way in (before `parse`). A body given
/// with ``SyncOptions/body`` is sent exactly as given.
///
/// Presets: ``plain`` (Backbone's format, the default), ``rails``, ``djangoREST``,
/// ``drupal``, ``drupal7`` and ``jsonAPI``. Each is a value to adjust:
///
/// ```swift
/// extension WireFormat {
///     static let api: WireFormat = {
///         var format = WireFormat.rails
///         format.keys.names["body"] = "content"
///         format.roles["password"] = .sendOnly
///         return format
///     }()
/// }
/// ```
public struct WireFormat: Sendable, Hashable {
    /// Every setting, behind one reference: a format is copied with each request a model
    /// builds (into its call, its response mapping, its events), and a copy of the settings
    /// themselves retained and released about twenty references.
    private var storage: WireFormatStorage

    /// App names ↔ wire names.
    public var keys: KeyMapping {
        get { storage.fields.keys }
        set { change { $0.keys = newValue } }
    }
    /// Which way particular attributes travel, keyed by app name.
    public var roles: [String: AttributeRole] {
        get { storage.fields.roles }
        set { change { $0.roles = newValue } }
    }
    /// Root keys around records.
    public var root: RootWrapping {
        get { storage.fields.root }
        set { change { $0.root = newValue } }
    }
    /// The verb of a save that is not a patch.
    public var updateVerb: UpdateVerb {
        get { storage.fields.updateVerb }
        set { change { $0.updateVerb = newValue } }
    }
    /// Appended to the resource paths the model and collection build (`/` for Django REST
    /// framework's `/notes/3/`, `.json` for Drupal 7's `/node/3.json`), unless the path already
    /// ends with it.
    ///
    /// Explicit URLs (``SyncOptions/url``, per-operation URLs) are used as they are.
    public var pathSuffix: String {
        get { storage.fields.pathSuffix }
        set { change { $0.pathSuffix = newValue } }
    }
    /// Query parameters sent with every request (Drupal's `_format=json`); a call's own
    /// ``SyncOptions/query`` comes after them.
    public var query: [String: String] {
        get { storage.fields.query }
        set { change { $0.query = newValue } }
    }
    /// Parameters added to every body built from a model (a save's, a
    /// ``Model/perform(route:options:)``'s), beside the record and its root key: an API version,
    /// a client name (RestKit's parameters, reverse-merged into the object's). A key the body
    /// already has keeps its value, and a call's ``SyncOptions/bodyParameters`` come on top of
    /// these. A body given with ``SyncOptions/body`` or ``SyncOptions/requestBody`` is sent as
    /// given.
    ///
    /// ```swift
    /// var format = WireFormat.rails
    /// format.bodyParameters = ["client": "ios"]  // {"note": {…}, "client": "ios"}
    /// ```
    public var bodyParameters: JSONObject {
        get { storage.fields.bodyParameters }
        set { change { $0.bodyParameters = newValue } }
    }
    /// How the bodies of a model's requests are sent: JSON, or a URL-encoded form in
    /// ``formNotation`` (RestKit's `requestSerializationMIMEType`).
    ///
    /// ```swift
    /// var format = WireFormat.rails
    /// format.bodyEncoding = .formURLEncoded  // note[title]=Milk
    /// ```
    public var bodyEncoding: BodyEncoding {
        get { storage.fields.bodyEncoding }
        set { change { $0.bodyEncoding = newValue } }
    }
    /// The formats of particular date attributes on the wire, keyed by app name: a Rails
    /// `date` column, a Unix timestamp, a `DateFormatter` pattern (NSRails' `dateFormat`).
    ///
    /// Responses are read from each format into an ISO 8601 string, the app's form of a date
    /// (what an ``AttributeKey`` of `Date` reads and writes); a value that does not fit its
    /// format fails the read with ``SyncError/unmappableResponse(keyPath:reason:)`` naming the
    /// attribute, and the model keeps what it had. Request bodies carry each ISO 8601 value in
    /// its attribute's format; another value (one the app wrote in the server's format already)
    /// is sent as it is. `null` stays `null` both ways.
    ///
    /// ```swift
    /// var format = WireFormat.rails
    /// format.dateFormats["dueOn"] = .calendarDate  // "due_on": "2026-11-28"
    /// note[Note.dueOn] = Date()                    // sent as the day, in UTC
    /// ```
    public var dateFormats: [String: DateFormat] {
        get { storage.fields.dateFormats }
        set { change { $0.dateFormats = newValue } }
    }
    /// Drupal's field wrapping, or `nil` for plain values.
    public var drupalFields: DrupalFields? {
        get { storage.fields.drupalFields }
        set { change { $0.drupalFields = newValue } }
    }
    /// Where the records of a list response are inside an envelope, as dot-separated wire
    /// keys (`results` for Django REST framework's pagination, `data.items`); `nil` when the
    /// list is the response itself (or under its root key).
    public var listKeyPath: String? {
        get { storage.fields.listKeyPath }
        set { change { $0.listKeyPath = newValue } }
    }
    /// Whether a list response must have something at ``listKeyPath``: `true` throws
    /// ``SyncError/unmappableResponse(keyPath:reason:)`` for one without; `false` reads such a
    /// response as if there were no key path (a bare list, or an object for the collection's
    /// `parse`), which is how ``djangoREST`` reads a paginated envelope and a plain list alike.
    public var requiresListKeyPath: Bool {
        get { storage.fields.requiresListKeyPath }
        set { change { $0.requiresListKeyPath = newValue } }
    }
    /// Where the record of a single-record response is inside an envelope (`data`); `nil`
    /// when the record is the response itself (or under its root key).
    public var recordKeyPath: String? {
        get { storage.fields.recordKeyPath }
        set { change { $0.recordKeyPath = newValue } }
    }
    /// How attributes are named as form fields when a save sends files
    /// (``Model/save(_:files:wait:patch:options:)``): ``FormNotation/brackets``
    /// (`user[address][city]`) by default, ``FormNotation/dotted`` (`address.city`) for
    /// Django REST framework.
    public var formNotation: FormNotation {
        get { storage.fields.formNotation }
        set { change { $0.formNotation = newValue } }
    }
    /// JSON:API documents (resource objects, `relationships`, `included`, error objects), or
    /// `nil` for plain records; see ``jsonAPI``.
    ///
    /// ```swift
    /// var format = WireFormat.jsonAPI
    /// format.jsonAPIFormat?.type = "people"
    /// ```
    public var jsonAPIFormat: JSONAPIFormat? {
        get { storage.fields.jsonAPIFormat }
        set { change { $0.jsonAPIFormat = newValue } }
    }
    /// The media type sent as `Accept`, and as `Content-Type` with a body
    /// (`application/vnd.api+json` for JSON:API); `nil` for the backend's own
    /// (`application/json` for ``RESTSync``). A call's ``SyncOptions/headers`` win.
    ///
    /// ```swift
    /// WireFormat.jsonAPI.mediaType  // "application/vnd.api+json"
    /// ```
    public var mediaType: String? {
        get { storage.fields.mediaType }
        set { change { $0.mediaType = newValue } }
    }

    /// Creates a wire format; by default Backbone's plain JSON.
    ///
    /// ```swift
    /// let format = WireFormat(keys: .snakeCase, root: RootWrapping(responses: .required))
    /// ```
    ///
    /// - Parameters:
    ///   - keys: App names ↔ wire names.
    ///   - roles: Which way particular attributes travel, by app name.
    ///   - root: Root keys around records.
    ///   - updateVerb: The verb of a full save.
    ///   - pathSuffix: Appended to resource paths.
    ///   - query: Query parameters for every request.
    ///   - drupalFields: Drupal's field wrapping.
    ///   - listKeyPath: Where a list response's records are.
    ///   - requiresListKeyPath: Whether a list response without anything at `listKeyPath` is
    ///     an error.
    ///   - recordKeyPath: Where a single-record response's record is.
    ///   - formNotation: How attributes are named as form fields.
    ///   - jsonAPIFormat: JSON:API documents, or `nil` for plain records.
    ///   - mediaType: The media type of bodies, or `nil` for the backend's.
    public init(
        keys: KeyMapping = .unchanged,
        roles: [String: AttributeRole] = [:],
        root: RootWrapping = .none,
        updateVerb: UpdateVerb = .put,
        pathSuffix: String = "",
        query: [String: String] = [:],
        drupalFields: DrupalFields? = nil,
        listKeyPath: String? = nil,
        requiresListKeyPath: Bool = true,
        recordKeyPath: String? = nil,
        formNotation: FormNotation = .brackets,
        jsonAPIFormat: JSONAPIFormat? = nil,
        mediaType: String? = nil
    ) {
        storage = WireFormatStorage(
            WireFormatFields(
                keys: keys,
                roles: roles,
                root: root,
                updateVerb: updateVerb,
                pathSuffix: pathSuffix,
                query: query,
                drupalFields: drupalFields,
                listKeyPath: listKeyPath,
                requiresListKeyPath: requiresListKeyPath,
                recordKeyPath: recordKeyPath,
                formNotation: formNotation,
                jsonAPIFormat: jsonAPIFormat,
                mediaType: mediaType
            )
        )
    }

    /// Changes one setting: the settings are copied into a new storage, which a format
    /// shares with its copies.
    private mutating func change(_ body: (inout WireFormatFields) -> Void) {
        var fields = storage.fields
        body(&fields)
        storage = WireFormatStorage(fields)
    }

    /// Whether two formats have the same settings.
    public static func == (lhs: WireFormat, rhs: WireFormat) -> Bool {
        lhs.storage.fields == rhs.storage.fields
    }

    /// Hashes the settings.
    public func hash(into hasher: inout Hasher) {
        storage.fields.hash(into: &hasher)
    }

    /// Whether the format changes nothing: Backbone's plain JSON.
    var isPlain: Bool { storage.fields.isPlain }
}
