/// How the responses of one route and range of status codes are read, instead of the wire
/// format's defaults: RestKit's response descriptors (path pattern, key path, status codes).
///
/// A mapping is a piece of a ``WireFormat``: a key path replaces the format's
/// ``WireFormat/recordKeyPath`` and ``WireFormat/listKeyPath`` (and, for a failure, says where
/// the validation errors are), and a whole format replaces the call's. Register mappings on a
/// model class's ``Model/responseMappings``; its fetches, saves, destroys, named routes and
/// collections' fetches consult them.
///
/// ```swift
/// Follower.responseMappings.register(
///     ResponseMapping(route: "/users/:user_id/followers", keyPath: "data.users")
/// )
/// Follower.responseMappings.register(ResponseMapping(statusCodes: 422...422, keyPath: "errors"))
/// Follower.responseMappings.register(ResponseMapping(statusCodes: 202...202, reading: .nothing))
/// ```
public struct ResponseMapping: Sendable, Hashable {
    /// What a matching response's body holds.
    ///
    /// ```swift
    /// let reading = ResponseMapping.Reading.keyPath("data.users")
    /// ```
    public enum Reading: Sendable, Hashable {
        /// The record, the list or the validation errors are at this dot-separated key path
        /// of wire keys (`data.users`); the rest of the call's format applies to them.
        case keyPath(String)
        /// The body is read with this format instead of the call's.
        case format(WireFormat)
        /// The body carries no record (a `202 Accepted` with a job): a model's attributes
        /// and a collection's models stay as they were, and the body stays in the response.
        case nothing
    }

    /// The pattern the request's path (relative to the base URL) must match, or `nil` for
    /// every path; its parameters reach `parse` in ``ResponseContext/routeParameters``.
    public var route: Route?
    /// The status codes the mapping reads: `200...299` by default; a range of errors (`422...422`)
    /// reads a failure's validation errors.
    public var statusCodes: ClosedRange<Int>
    /// What the body holds.
    public var reading: Reading

    /// Creates a mapping.
    ///
    /// ```swift
    /// let accepted = ResponseMapping(route: "/reports", statusCodes: 202...202, reading: .nothing)
    /// ```
    ///
    /// - Parameters:
    ///   - route: The path pattern, or `nil` for every path.
    ///   - statusCodes: The status codes it reads.
    ///   - reading: What the body holds.
    public init(route: Route? = nil, statusCodes: ClosedRange<Int> = 200...299, reading: Reading) {
        self.route = route
        self.statusCodes = statusCodes
        self.reading = reading
    }

    /// Creates a mapping that reads the record, the list or the errors at a key path.
    ///
    /// ```swift
    /// let followers = ResponseMapping(route: "/users/:user_id/followers", keyPath: "data.users")
    /// ```
    ///
    /// - Parameters:
    ///   - route: The path pattern, or `nil` for every path.
    ///   - statusCodes: The status codes it reads.
    ///   - keyPath: Dot-separated wire keys.
    public init(route: Route? = nil, statusCodes: ClosedRange<Int> = 200...299, keyPath: String) {
        self.init(route: route, statusCodes: statusCodes, reading: .keyPath(keyPath))
    }

    /// Creates a mapping that reads matching responses with another wire format.
    ///
    /// ```swift
    /// let legacy = ResponseMapping(route: "/v1/notes/:id", format: .rails)
    /// ```
    ///
    /// - Parameters:
    ///   - route: The path pattern, or `nil` for every path.
    ///   - statusCodes: The status codes it reads.
    ///   - format: The format of their bodies.
    public init(route: Route? = nil, statusCodes: ClosedRange<Int> = 200...299, format: WireFormat) {
        self.init(route: route, statusCodes: statusCodes, reading: .format(format))
    }

    /// The route parameters of a path this mapping reads at a status, or `nil` when it does not.
    func parameters(matching path: String, status: Int) -> [String: String]? {
        guard statusCodes.contains(status) else { return nil }
        guard let route else { return [:] }
        return route.parameters(in: path)
    }

    /// The format that reads a successful response's records: the call's with this key path,
    /// or this mapping's format; `nil` when the body carries none.
    func format(over format: WireFormat) -> WireFormat? {
        switch reading {
        case .keyPath(let keyPath):
            var mapped = format
            mapped.recordKeyPath = keyPath
            mapped.listKeyPath = keyPath
            mapped.requiresListKeyPath = true
            return mapped
        case .format(let replacement): return replacement
        case .nothing: return nil
        }
    }

    /// A backend's failure in the app's terms, with this mapping's errors: at its key path
    /// (``ValidationError/init(json:)`` of the value there), or read by its format.
    func appFailure(_ error: SyncError, over format: WireFormat) -> SyncError {
        switch reading {
        case .keyPath(let keyPath): return format.appFailure(Self.errors(of: error, at: keyPath))
        case .format(let replacement): return replacement.appFailure(error)
        case .nothing: return format.appFailure(error)
        }
    }

    /// The validation errors at a key path of a failure's body. A body the backend read as
    /// validation errors already has its paths start with the key path; a body it kept gives
    /// the value there. A failure with nothing at the key path is left as it is.
    private static func errors(of error: SyncError, at keyPath: String) -> SyncError {
        switch error {
        case .httpStatus(let status, let body?):
            guard let value = WireKeyPath(keyPath).value(in: body), let errors = ValidationError(json: value)
            else { return error }
            return .validationFailed(errors, status: status)
        case .validationFailed(let errors, let status):
            guard let rerooted = errors.underKeyPath(keyPath) else { return error }
            return .validationFailed(rerooted, status: status)
        default:
            return error
        }
    }
}

extension ValidationError {
    /// The errors under a key path, with the key path taken off their paths (those at the key
    /// path itself become model-wide), or `nil` when no error is under it.
    fileprivate func underKeyPath(_ keyPath: String) -> ValidationError? {
        var result = ValidationError()
        for (path, messages) in attributes {
            if path == keyPath {
                result.messages += messages
            } else if path.hasPrefix(keyPath + ".") {
                result.attributes[String(path.dropFirst(keyPath.count + 1)), default: []] += messages
            }
        }
        return result.isEmpty ? nil : result
    }
}
