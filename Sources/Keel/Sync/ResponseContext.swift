/// Where the server data that `parse` reads came from: the request, the response and the
/// parameters of the route that built the URL (RestKit's `@metadata.routing`).
///
/// ``Model/parse(_:options:)`` finds it in ``ChangeOptions/responseContext`` and
/// ``Collection/parse(_:options:)`` in ``UpdateOptions/responseContext`` when they read the
/// answer of a `fetch`, `save` or ``Model/perform(route:options:)``; it is `nil` for attributes
/// given with `parse: true` outside a sync. The `change` events of the call carry it too.
///
/// ```swift
/// final class Follower: Model {
///     override func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? {
///         var attributes = response.objectValue ?? [:]
///         if let user = options.responseContext?.routeParameters["user_id"] {
///             attributes["followedUserID"] = .string(user)
///         }
///         return attributes
///     }
/// }
/// ```
public struct ResponseContext: Sendable, Hashable {
    /// The request that was answered.
    public let request: SyncRequest
    /// The answer: status, headers and body as the server sent it.
    public let response: SyncResponse
    /// The route whose pattern built the request's URL (a class route, a named route, a
    /// ``ResponseMapping``'s route that matched it), or `nil` for a URL built otherwise.
    public let route: Route?
    /// The values that filled the route's parameters, read back from the request's URL and
    /// percent-decoded (`["user_id": "1", "id": "7"]` for `/users/:user_id/invites/:id`);
    /// empty without a route.
    public let routeParameters: [String: String]

    /// Creates a context, for tests of `parse` overrides.
    ///
    /// ```swift
    /// let context = ResponseContext(
    ///     request: SyncRequest(method: .read, url: URL(string: "/users/1/invites/7")!),
    ///     response: SyncResponse(status: 200, body: ["id": 7]),
    ///     route: "/users/:user_id/invites/:id",
    ///     routeParameters: ["user_id": "1", "id": "7"]
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request that was answered.
    ///   - response: The answer.
    ///   - route: The route that built the URL, if any.
    ///   - routeParameters: The values of its parameters.
    public init(request: SyncRequest, response: SyncResponse, route: Route? = nil, routeParameters: [String: String] = [:]) {
        self.request = request
        self.response = response
        self.route = route
        self.routeParameters = routeParameters
    }
}
