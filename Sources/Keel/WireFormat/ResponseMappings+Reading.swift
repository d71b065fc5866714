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
        let found = match(url: request.url, status: response.status, baseURL: baseURL)
        let path = { Self.relativePath(of: request.url, under: baseURL) }
        let parameters = route.flatMap { $0.parameters(in: path()) }
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
