extension Model {
    /// Sends a request to one of the class's named routes with the route's method, and sets
    /// the record the server answers with: RestKit's named routes, for actions on a saved
    /// model such as `POST /users/:id/follow`.
    ///
    /// The route's ``Route/method`` is the request's (``SyncMethod/read`` for a route without
    /// one). `create`, `update` and `patch` send the model's whole body in its wire format, as
    /// a full save does (or ``SyncOptions/body`` / ``SyncOptions/requestBody`` when given);
    /// `read` and `delete` send none. The route's parameters are filled as for
    /// ``requestURL(for:options:)``, from ``SyncOptions/routeParameters`` and then the
    /// attributes, and ``SyncOptions/url`` and the per-operation URLs are not used.
    ///
    /// Emits `request`; then, when the answer carries a record, `change` events for what it
    /// changed (the record is parsed and set as a fetch's is, and the model counts as synced),
    /// then `sync`. An answer without a record (`204 No Content`) changes nothing and leaves
    /// ``unsavedChanges`` as they were. On failure it emits `error` (or calls
    /// ``SyncOptions/onFailure``) and throws. Nothing is validated, and a `delete` route does
    /// not destroy the model. It runs after the model's earlier fetches, saves and destroys,
    /// on the caller's isolation; cancelling the task cancels the request.
    ///
    /// ```swift
    /// final class User: Model {
    ///     override class var urlRoot: String? { "/users" }
    ///     override class var routes: Routes {
    ///         Routes(named: [
    ///             "follow": Route("/users/:id/follow", method: .create),
    ///             "unfollow": Route("/users/:id/follow", method: .delete),
    ///         ])
    ///     }
    /// }
    ///
    /// try await user.perform(route: "follow")  // POST /users/1/follow
    /// ```
    ///
    /// - Parameters:
    ///   - name: The name of one of the class's ``Routes/named`` routes.
    ///   - options: Per-call route parameters, body, query, headers, timeout, handlers.
    /// - Returns: The backend's response.
    /// - Throws: ``SyncError/missingURL(_:)`` when the class has no route of that name;
    ///   ``SyncError/missingRouteParameter(_:route:)`` when the route lacks a value (a new
    ///   model has no `:id`); any other ``SyncError`` of the backend. Nothing is sent when the
    ///   request cannot be built.
    @discardableResult
    public func perform(route name: String, options: SyncOptions = SyncOptions()) async throws(SyncError)
        -> SyncResponse
    {
        await syncGate.enter()
        defer { syncGate.leave() }
        if Task.isCancelled { throw .cancelled }
        let backend = try requireBackend()
        let route = try namedRoute(name)
        let method = route.method ?? .read
        let format = wireFormat(for: options)
        var body: JSONValue?
        if [.create, .update, .patch].contains(method) {
            body =
                options.body
                ?? format.requestBody(
                    encodingRelations(in: toJSON(options: options.change), changesOnly: false),
                    for: Self.self
                )
        }
        let path = format.suffixed(try routePath(route, extra: options.routeParameters))
        let request = try makeRequest(
            method,
            url: try URLPath.resolve(path, against: resolvedBaseURL),
            body: body,
            format: format,
            options: options,
            rootKey: format.requestRootKey(for: Self.self)
        )
        let response = try await performSync(
            request,
            with: backend,
            model: self,
            collection: nil,
            format: format,
            options: options
        )
        guard let answer = response.body, answer != .null, answer != "" else {
            reportSyncSuccess(response, request: request, model: self, collection: nil, options: options)
            return response
        }
        try applyResponse(
            response,
            request: request,
            waitedAttributes: nil,
            format: format,
            options: options,
            route: route
        )
        return response
    }
}
