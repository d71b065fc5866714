extension WireFormat {
    /// Backbone's format: the attributes as they are, no root key, `PUT` for updates.
    ///
    /// ```swift
    /// override class var wireFormat: WireFormat { .plain }
    /// ```
    public static let plain = WireFormat()

    /// Ruby on Rails: snake_case keys; request bodies wrapped in the model's root key
    /// (`{"note": {…}}`, what `params.require(:note)` reads); responses unwrapped when
    /// wrapped (`include_root_in_json`, `render json: {note: …}`, `{"notes": […]}`);
    /// `id`, `createdAt` and `updatedAt` read-only; full saves as `PATCH`.
    ///
    /// ```swift
    /// override class var wireFormat: WireFormat { .rails }
    /// ```
    public static let rails = WireFormat(
        keys: .snakeCase,
        roles: ["id": .readOnly, "createdAt": .readOnly, "updatedAt": .readOnly],
        root: RootWrapping(wrapsRequests: true, responses: .optional),
        updateVerb: .patch
    )

    /// Django REST framework with a stock router: snake_case keys, no root key, `id`
    /// read-only, full saves as `PUT`, and the router's trailing slash on every resource path
    /// (`/notes/`, `/notes/3/`); with files, attributes go as form fields in
    /// ``FormNotation/dotted`` notation, the one DRF's parsers read.
    ///
    /// List responses are read whether DRF's pagination is on or off: the records of a
    /// `{"count", "next", "previous", "results"}` envelope (``listKeyPath`` `results`, not
    /// required), or a plain list. Declare `FileField`s with ``AttributeRole/file``.
    ///
    /// ```swift
    /// override class var wireFormat: WireFormat { .djangoREST }
    /// ```
    public static let djangoREST = WireFormat(
        keys: .snakeCase,
        roles: ["id": .readOnly],
        pathSuffix: "/",
        listKeyPath: "results",
        requiresListKeyPath: false,
        formNotation: .dotted
    )

    /// Drupal 8 and later, core REST: `?_format=json` on every request, field values
    /// unwrapped from their item lists and wrapped back, the node id `nid` as `id`, snake_case
    /// keys, `id`, `uuid`, `vid` and `changed` read-only, the bundle `type` sent with every
    /// write, and saves as `PATCH` (Drupal has no `PUT`).
    ///
    /// Pair it with ``DrupalSession`` for the login cookie and the CSRF token that Drupal
    /// asks of unsafe requests.
    ///
    /// ```swift
    /// override class var wireFormat: WireFormat { .drupal }
    /// ```
    public static let drupal = WireFormat(
        keys: KeyMapping(.snakeCase, names: ["id": "nid"]),
        roles: ["id": .readOnly, "uuid": .readOnly, "vid": .readOnly, "changed": .readOnly, "type": .alwaysSent],
        updateVerb: .patch,
        query: ["_format": "json"],
        drupalFields: DrupalFields(
            .drupal8,
            itemKeys: ["type": "target_id", "uid": "target_id", "revision_uid": "target_id"]
        )
    )

    /// Drupal 7 with the Services module: `.json` resource paths, `body` and `field_…` values
    /// unwrapped from their language (`{"und": [{"value": …}]}`) and wrapped back, the node
    /// id `nid` as `id`, snake_case keys, `id`, `vid` and `uri` read-only, saves as `PUT`.
    ///
    /// ```swift
    /// override class var wireFormat: WireFormat { .drupal7 }
    /// ```
    public static let drupal7 = WireFormat(
        keys: KeyMapping(.snakeCase, names: ["id": "nid"]),
        roles: ["id": .readOnly, "vid": .readOnly, "uri": .readOnly, "type": .alwaysSent],
        pathSuffix: ".json",
        drupalFields: DrupalFields(.drupal7(language: "und"))
    )
}
