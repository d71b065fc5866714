import Foundation

/// How one response is read: the format of its records (`nil` when it carries none) and the
/// context `parse` receives.
struct MappedResponse {
    let format: WireFormat?
    let context: ResponseContext
}

extension ResponseMappings {
    /// How a successful response is read: with the matching mapping over the call's format,
    /// else with the call's format; and its context, whose route parameters come from the
    /// route that built the URL, else from the mapping's route.
    func reading(
        _ response: SyncResponse,
        to request: SyncRequest,
        format: WireFormat,
        route: Route?,
        baseURL: URL?
    ) -> MappedResponse {
        Self.reading(
            response,
            to: request,
            found: match(url: request.url, status: response.status, baseURL: baseURL),
            format: format,
            route: route,
            baseURL: baseURL
        )
    }

    /// ``reading(_:to:format:route:baseURL:)`` with the table of `modelType`, looked up only
    /// once some class has registered a mapping: until then no response has one, and a call's
    /// answer is read without a lock and a dictionary lookup for its class's table.
    ///
    /// The base URL is asked for only when it is read: by a mapping, or to find the
    /// parameters of `route`.
    static func reading(
        _ response: SyncResponse,
        to request: SyncRequest,
        of modelType: Model.Type,
        format: WireFormat,
        route: Route?,
        baseURL: @autoclosure () -> URL?
    ) -> MappedResponse {
        guard anyRegistered else {
            return reading(response, to: request, found: nil, format: format, route: route, baseURL: baseURL())
        }
        return modelType.responseMappings.reading(
            response,
            to: request,
            format: format,
            route: route,
            baseURL: baseURL()
        )
    }

    /// How a response is read once the mapping that matches it (if any) is `found`.
    private static func reading(
        _ response: SyncResponse,
        to request: SyncRequest,
        found: (mapping: ResponseMapping, parameters: [String: String])?,
        format: WireFormat,
        route: Route?,
        baseURL: @autoclosure () -> URL?
    ) -> MappedResponse {
        let parameters = route.flatMap { $0.parameters(in: relativePath(of: request.url, under: baseURL())) }
        let context = ResponseContext(
            request: request,
            response: response,
            route: parameters != nil ? route : found?.mapping.route,
            routeParameters: parameters ?? found?.parameters ?? [:]
        )
        guard let found else { return MappedResponse(format: format, context: context) }
        return MappedResponse(format: found.mapping.format(over: format), context: context)
    }

    /// A backend's failure in the app's terms, read by the mapping for its status when one
    /// matches, else by the call's format.
    func appFailure(_ error: SyncError, to request: SyncRequest, format: WireFormat, baseURL: URL?) -> SyncError {
        guard let status = error.status, let found = match(url: request.url, status: status, baseURL: baseURL) else {
            return format.appFailure(error)
        }
        return found.mapping.appFailure(error, over: format)
    }
}
