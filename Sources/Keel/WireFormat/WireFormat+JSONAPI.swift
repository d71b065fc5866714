extension WireFormat {
    /// JSON:API 1.1 with the spec's recommendations: camelCase member names as in the app,
    /// plural dasherized types (`TodoItem` → `todo-items`), `application/vnd.api+json` on
    /// `Accept` and `Content-Type`, and saves as `PATCH`.
    ///
    /// A record travels as a resource object: `id` as a string (see ``JSONAPIFormat`` for how
    /// an integer id maps), the other attributes under `attributes`, and the relations the
    /// class declares as `relationships` linkage (`{"type": "people", "id": "9"}`) ↔ a
    /// ``BelongsTo``'s foreign key, a ``HasOne``'s model or a ``HasMany``'s models. Records of
    /// a response's `included` fill the relations that link to them, by `(type, id)`, at every
    /// depth the classes declare; a record met again inside itself (a cycle) gets its id
    /// only. A relationship without `data` (links only) leaves its relation as it is, and a
    /// sparse fieldset sets only the fields it carries.
    ///
    /// Error objects of a 400, 409 or 422 become ``SyncError/validationFailed(_:status:)``
    /// with app names (see ``SyncError/validationFailed(_:status:)``), and a 406 or 415
    /// ``SyncError/mediaTypeRefused(status:mediaType:body:)``. The document's `meta` and
    /// `links` stay in the response (``SyncResponse/jsonAPIMeta``) and, for a model, in
    /// ``Model/remoteAttributes``.
    ///
    /// ```swift
    /// override class var wireFormat: WireFormat { .jsonAPI }
    /// ```
    public static let jsonAPI = jsonAPI()

    /// JSON:API with a resource type, a key mapping or a type naming of your own.
    ///
    /// ```swift
    /// // djangorestframework-jsonapi: snake_case names, the model's name as type.
    /// override class var wireFormat: WireFormat { .jsonAPI(keys: .snakeCase, typeNaming: .className) }
    /// // ActiveModelSerializers' :json_api adapter: dasherized names.
    /// override class var wireFormat: WireFormat { .jsonAPI(keys: KeyMapping(.dasherized)) }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The class's resource type; `nil` to derive it from the class name.
    ///   - keys: App attribute names ↔ wire member names.
    ///   - typeNaming: How types are derived from class names.
    /// - Returns: The wire format.
    public static func jsonAPI(
        type: String? = nil,
        keys: KeyMapping = .unchanged,
        typeNaming: JSONAPIFormat.TypeNaming = .pluralDasherized
    ) -> WireFormat {
        WireFormat(
            keys: keys,
            roles: ["id": .alwaysSent],
            updateVerb: .patch,
            jsonAPIFormat: JSONAPIFormat(type: type, typeNaming: typeNaming),
            mediaType: JSONAPIFormat.mediaType
        )
    }

    /// Drupal's JSON:API module (in core since Drupal 8.7): the resource type named as Drupal
    /// names it (`node--article`, `user--user`, `taxonomy_term--tags`), member names as Drupal
    /// spells them (`drupal_internal__nid`, `field_tags`), and Drupal's read-only members never
    /// sent.
    ///
    /// The model's id is the resource's UUID, which addresses it (`/jsonapi/node/article/{uuid}`);
    /// `drupal_internal__nid` is an attribute like the others. `drupal_internal__nid`,
    /// `drupal_internal__vid`, `changed` and `revision_timestamp` are read but never sent,
    /// since Drupal refuses a write that changes them. Everything else is ``jsonAPI``'s: filter
    /// with ``SyncOptions/query`` (`["filter[status]": "1"]`), page with
    /// ``PageStyle/jsonAPIOffset(offset:limit:totalKeyPath:)``, and send writes through a
    /// ``DrupalSession``, which adds the CSRF token Drupal asks of a cookie session.
    ///
    /// ```swift
    /// override class var wireFormat: WireFormat { .drupalJSONAPI(type: "node--article") }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The resource type, `<entity type>--<bundle>`.
    ///   - keys: App attribute names ↔ Drupal's field names (`tags` ↔ `field_tags`, say).
    /// - Returns: The wire format.
    public static func drupalJSONAPI(type: String, keys: KeyMapping = .unchanged) -> WireFormat {
        var format = jsonAPI(type: type, keys: keys)
        for wireName in ["drupal_internal__nid", "drupal_internal__vid", "changed", "revision_timestamp"] {
            format.roles[keys.appName(for: wireName)] = .readOnly
        }
        return format
    }
}
