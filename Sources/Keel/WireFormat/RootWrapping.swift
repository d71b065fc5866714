/// Whether records travel inside a root key, as Rails does: `{"note": {…}}` for one record,
/// `{"notes": […]}` or `[{"note": {…}}, …]` for a list.
///
/// The root names default to the model class's ``Model/resourceName`` (its name in snake_case)
/// and ``Model/pluralResourceName`` (its plural with Rails' inflection for the common cases):
/// `Note`: note/notes, `Person`: person/people, `Category`: category/categories, `TodoItem`:
/// todo_item/todo_items.
///
/// ```swift
/// var format = WireFormat.rails
/// format.root = RootWrapping(singular: "post", plural: "posts", responses: .required)
/// ```
public struct RootWrapping: Sendable, Hashable {
    /// How responses carry the root key.
    public enum Responses: Sendable, Hashable {
        /// Responses are never wrapped; a record whose only attribute happens to have the
        /// root's name stays as it is.
        case unwrapped
        /// Responses are unwrapped when they have the root key and used as they are
        /// otherwise (Rails apps differ, and `wrap_parameters` accepts both in requests).
        case optional
        /// Responses must have the root key; one without it throws
        /// ``SyncError/unmappableResponse(keyPath:reason:)``.
        case required
    }

    /// The root key of one record; `nil` for the class's ``Model/resourceName``.
    public var singular: String?
    /// The root key of a list; `nil` for the plural of ``singular``, or the class's
    /// ``Model/pluralResourceName`` when ``singular`` is `nil` too.
    public var plural: String?
    /// Whether request bodies are wrapped in the singular root.
    public var wrapsRequests: Bool
    /// Whether and how responses are wrapped.
    public var responses: Responses

    /// Creates a root wrapping.
    ///
    /// ```swift
    /// let root = RootWrapping(singular: "person", responses: .required)
    /// ```
    ///
    /// - Parameters:
    ///   - singular: The root key of one record; `nil` for the class name in snake_case.
    ///   - plural: The root key of a list; `nil` for the plural of the singular.
    ///   - wrapsRequests: Wrap request bodies.
    ///   - responses: Whether responses are wrapped.
    public init(
        singular: String? = nil,
        plural: String? = nil,
        wrapsRequests: Bool = true,
        responses: Responses = .optional
    ) {
        self.singular = singular
        self.plural = plural
        self.wrapsRequests = wrapsRequests
        self.responses = responses
    }

    /// No root key in either direction (Backbone, Django REST framework).
    ///
    /// ```swift
    /// var format = WireFormat.rails
    /// format.root = .none
    /// ```
    public static let none = RootWrapping(wrapsRequests: false, responses: .unwrapped)

    /// Whether the wrapping does anything.
    var isNone: Bool { !wrapsRequests && responses == .unwrapped }

    /// The singular and plural keys for a model class.
    func names(for modelType: Model.Type) -> (singular: String, plural: String) {
        guard let singular else { return (modelType.resourceName, plural ?? modelType.pluralResourceName) }
        return (singular, plural ?? Inflection.pluralize(singular))
    }
}
