import Foundation

/// A path pattern such as `/users/:user_id/invites/:id`, filled from a model's attributes,
/// and matched back to its parameters (RestKit's routes).
///
/// A parameter is `:` followed by letters, digits and `_`. Each value is percent-encoded as
/// one path segment, and an empty, `.` or `..` value is refused, as for ids.
///
/// ```swift
/// let route: Route = "/users/:user_id/invites/:id"
/// try route.path(["user_id": 1, "id": 7])              // "/users/1/invites/7"
/// route.parameters(in: "/users/1/invites/7")           // ["user_id": "1", "id": "7"]
/// ```
public struct Route: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The pattern, as written.
    public let pattern: String

    /// Creates a route from its pattern.
    ///
    /// ```swift
    /// let route = Route("/notes/:id")
    /// ```
    public init(_ pattern: String) {
        self.pattern = pattern
    }

    /// Creates a route from a string literal.
    ///
    /// ```swift
    /// let route: Route = "/notes/:id"
    /// ```
    public init(stringLiteral pattern: String) {
        self.init(pattern)
    }

    /// The pattern.
    public var description: String { pattern }

    /// The names of the parameters, in order.
    ///
    /// ```swift
    /// Route("/users/:user_id/invites/:id").parameterNames  // ["user_id", "id"]
    /// ```
    public var parameterNames: [String] { segments.compactMap(\.parameter) }

    /// The path with every parameter filled in.
    ///
    /// ```swift
    /// try Route("/notes/:id").path(["id": "a/b"])  // "/notes/a%2Fb"
    /// ```
    ///
    /// - Parameter values: The value of each parameter (a query or fragment in the pattern
    ///   is kept as it is).
    /// - Returns: The path.
    /// - Throws: ``SyncError/missingRouteParameter(_:route:)`` when a parameter has no value
    ///   (or `null`); ``SyncError/unsafePathSegment(_:)`` when a value is empty, `.` or `..`.
    public func path(_ values: [String: JSONValue]) throws(SyncError) -> String {
        try path { name in values[name] }
    }

    /// The path with every parameter filled in by `value`.
    func path(_ value: (String) -> JSONValue?) throws(SyncError) -> String {
        var result = ""
        for segment in segments {
            switch segment {
            case .literal(let text):
                result += text
            case .parameter(let name):
                guard let value = value(name), !value.isNull else {
                    throw .missingRouteParameter(name, route: pattern)
                }
                result += try URLPath.recordSegment(for: value)
            }
        }
        return result
    }

    /// The parameters of a path that matches the route, percent-decoded; `nil` when it does
    /// not match.
    ///
    /// ```swift
    /// Route("/users/:user_id/invites/:id").parameters(in: "/users/1/invites/7?x=1")  // ["user_id": "1", "id": "7"]
    /// ```
    ///
    /// - Parameter path: A path, or an absolute URL's text; its query and fragment are ignored.
    /// - Returns: The value of each parameter.
    public func parameters(in path: String) -> [String: String]? {
        var rest = Substring(URL(string: path)?.path(percentEncoded: true) ?? path)
        if URLPath.hasScheme(path) == false, let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            rest = rest[..<end]
        }
        var values: [String: String] = [:]
        let parts = segments
        for (index, segment) in parts.enumerated() {
            switch segment {
            case .literal(let text):
                guard rest.hasPrefix(text) else { return nil }
                rest = rest.dropFirst(text.count)
            case .parameter(let name):
                let stop: Character? = {
                    if index + 1 < parts.count, case .literal(let next) = parts[index + 1] { return next.first }
                    return nil
                }()
                let end = rest.firstIndex { $0 == "/" || $0 == stop } ?? rest.endIndex
                guard end > rest.startIndex else { return nil }
                let raw = String(rest[..<end])
                values[name] = raw.removingPercentEncoding ?? raw
                rest = rest[end...]
            }
        }
        return rest.isEmpty || rest == "/" ? values : nil
    }

    private enum Segment {
        case literal(String)
        case parameter(String)

        var parameter: String? {
            if case .parameter(let name) = self { return name }
            return nil
        }
    }

    /// The pattern split into literal text and parameters.
    private var segments: [Segment] {
        var result: [Segment] = []
        var literal = ""
        var index = pattern.startIndex
        while index < pattern.endIndex {
            let character = pattern[index]
            let next = pattern.index(after: index)
            if character == ":", next < pattern.endIndex, Self.isNameCharacter(pattern[next]) {
                if !literal.isEmpty { result.append(.literal(literal)) }
                literal = ""
                var end = next
                while end < pattern.endIndex, Self.isNameCharacter(pattern[end]) { end = pattern.index(after: end) }
                result.append(.parameter(String(pattern[next..<end])))
                index = end
            } else {
                literal.append(character)
                index = next
            }
        }
        if !literal.isEmpty { result.append(.literal(literal)) }
        return result
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        character == "_" || character.isLetter || character.isNumber
    }
}
