/// The routes of a model class: a path pattern per method, named routes for other
/// endpoints, and routes for its relations (RestKit's class, named and relationship routes).
///
/// Parameters are filled from the model's attributes, by app name or by wire name (`:user_id`
/// reads `userId` with a snake_case format), and from the owner of a related collection
/// (`:user_id` is the owner's id when the model is in a user's invites).
///
/// ```swift
/// final class Invite: Model {
///     override class var routes: Routes {
///         Routes(
///             "/users/:user_id/invites/:id",
///             methods: [.create: "/users/:user_id/invites"],
///             named: ["resend": "/users/:user_id/invites/:id/resend"]
///         )
///     }
/// }
/// ```
public struct Routes: Sendable, Hashable {
    /// The route of every method without one of its own.
    public var `default`: Route?
    /// The route of particular methods.
    public var methods: [SyncMethod: Route]
    /// Routes by name, for ``SyncOptions/route``.
    public var named: [String: Route]
    /// The routes of the class's has-many relations by key, such as `invites:
    /// "/users/:id/invites"`, filled from the owner.
    public var relationships: [String: Route]

    /// Creates routes.
    ///
    /// ```swift
    /// let routes = Routes("/notes/:id", methods: [.create: "/notes"], named: ["search": "/notes/search"])
    /// ```
    ///
    /// - Parameters:
    ///   - default: The route of every method without one of its own.
    ///   - methods: Routes of particular methods.
    ///   - named: Routes by name.
    ///   - relationships: Routes of has-many relations, by key.
    public init(
        _ default: Route? = nil,
        methods: [SyncMethod: Route] = [:],
        named: [String: Route] = [:],
        relationships: [String: Route] = [:]
    ) {
        self.default = `default`
        self.methods = methods
        self.named = named
        self.relationships = relationships
    }

    /// The route of a method: its own, else the default.
    ///
    /// ```swift
    /// Routes("/notes/:id", methods: [.create: "/notes"]).route(for: .create)  // "/notes"
    /// ```
    public func route(for method: SyncMethod) -> Route? {
        // Most classes route no method of their own: the method is not hashed for an empty table.
        guard !methods.isEmpty else { return self.default }
        return methods[method] ?? self.default
    }

    var isEmpty: Bool { self.default == nil && methods.isEmpty && named.isEmpty && relationships.isEmpty }
}
