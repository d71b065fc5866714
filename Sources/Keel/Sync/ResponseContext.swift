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
    /// The four values, kept in one shared box: a context travels by value through the
    /// response mapping, the change options and every `change` event of the call, and a copy
    /// of the box is one retain where a copy of the request and response was dozens.
    private final class Storage: Sendable {
        let request: SyncRequest
        let response: SyncResponse
        let route: Route?
        let routeParameters: [String: String]

        init(request: SyncRequest, response: SyncResponse, route: Route?, routeParameters: [String: String]) {
            self.request = request
            self.response = response
            self.route = route
            self.routeParameters = routeParameters
        }
    }

    private let storage: Storage

    /// The request that was answered.
    public var request: SyncRequest { storage.request }
    /// The answer: status, headers and body as the server sent it.
    public var response: SyncResponse { storage.response }
    /// The route whose pattern built the request's URL (a class route, a named route, a
    /// ``ResponseMapping``'s route that matched it), or `nil` for a URL built otherwise.
    public var route: Route? { storage.route }
    /// The values that filled the route's parameters, read back from the request's URL and
    /// percent-decoded (`["user_id": "1", "id": "7"]` for `/users/:user_id/invites/:id`);
    /// empty without a route.
    public var routeParameters: [String: String] { storage.routeParameters }

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
    public init(
        request: SyncRequest,
        response: SyncResponse,
        route: Route? = nil,
        routeParameters: [String: String] = [:]
    ) {
        storage = Storage(request: request, response: response, route: route, routeParameters: routeParameters)
    }

    /// Whether two contexts hold the same request, response, route and parameters.
    ///
    /// ```swift
    /// ResponseContext(request: request, response: response) == ResponseContext(request: request, response: response)  // true
    /// ```
    ///
    /// - Parameters:
    ///   - lhs: A context.
    ///   - rhs: Another context.
    /// - Returns: `true` when every value is equal.
    public static func == (lhs: ResponseContext, rhs: ResponseContext) -> Bool {
        lhs.request == rhs.request && lhs.response == rhs.response && lhs.route == rhs.route
            && lhs.routeParameters == rhs.routeParameters
    }

    /// Hashes the request, response, route and parameters.
    ///
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(request)
        hasher.combine(response)
        hasher.combine(route)
        hasher.combine(routeParameters)
    }
}
