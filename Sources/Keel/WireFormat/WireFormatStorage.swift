/// The settings of a ``WireFormat``, one stored property each (see ``WireFormat`` for what
/// each one means).
struct WireFormatFields: Sendable, Hashable {
    var keys: KeyMapping
    var roles: [String: AttributeRole]
    var root: RootWrapping
    var updateVerb: UpdateVerb
    var pathSuffix: String
    var query: [String: String]
    var bodyParameters: JSONObject = [:]
    var bodyEncoding: BodyEncoding = BodyEncoding.json
    var dateFormats: [String: DateFormat] = [:]
    var drupalFields: DrupalFields?
    var listKeyPath: String?
    var requiresListKeyPath: Bool
    var recordKeyPath: String?
    var formNotation: FormNotation
    var jsonAPIFormat: JSONAPIFormat?
    var mediaType: String?

    /// Creates the settings; those not given keep their defaults.
    init(
        keys: KeyMapping,
        roles: [String: AttributeRole],
        root: RootWrapping,
        updateVerb: UpdateVerb,
        pathSuffix: String,
        query: [String: String],
        drupalFields: DrupalFields?,
        listKeyPath: String?,
        requiresListKeyPath: Bool,
        recordKeyPath: String?,
        formNotation: FormNotation,
        jsonAPIFormat: JSONAPIFormat?,
        mediaType: String?
    ) {
        self.keys = keys
        self.roles = roles
        self.root = root
        self.updateVerb = updateVerb
        self.pathSuffix = pathSuffix
        self.query = query
        self.drupalFields = drupalFields
        self.listKeyPath = listKeyPath
        self.requiresListKeyPath = requiresListKeyPath
        self.recordKeyPath = recordKeyPath
        self.formNotation = formNotation
        self.jsonAPIFormat = jsonAPIFormat
        self.mediaType = mediaType
    }

    /// Whether the settings change nothing (``WireFormat/isPlain``), read in place.
    var isPlain: Bool {
        keys.isIdentity && roles.isEmpty && root.isNone && drupalFields == nil && listKeyPath == nil
            && recordKeyPath == nil && jsonAPIFormat == nil && mediaType == nil && dateFormats.isEmpty
    }
}

/// The one reference a ``WireFormat`` and its copies share: its settings, never changed in
/// place (a change makes a new storage), so that reading a setting needs no exclusivity
/// check and copying a format retains one reference.
final class WireFormatStorage: Sendable {
    /// The settings.
    let fields: WireFormatFields

    /// Holds `fields`.
    init(_ fields: WireFormatFields) {
        self.fields = fields
    }
}
