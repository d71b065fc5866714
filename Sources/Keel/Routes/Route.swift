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
///
/// A parameter can be a key path (RestKit's `:category.name`): the value of `category`, then
/// its `name`, through nested objects such as a related model's attributes. A value given for
/// the whole key path wins. Once a value is not an object, the rest of the key path is
/// literal text, so `/files/:name.json` is the `name` followed by `.json`:
///
/// ```swift
/// try Route("/categories/:category.name").path(["category": ["name": "books"]])  // "/categories/books"
/// try Route("/files/:name.json").path(["name": "report"])                       // "/files/report.json"
/// ```
public struct Route: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The pattern, as written.
    public let pattern: String
    /// The method of a named route's requests (``Model/perform(route:options:)``), or `nil`
    /// for a route that serves other calls with their own methods.
    ///
    /// ```swift
    /// Route("/users/:id/follow", method: .create).method  // .create, sent as POST
    /// ```
    public let method: SyncMethod?

    /// Creates a route from its pattern, and the method of its requests when it is an action
    /// of its own (RestKit's named routes with their method).
    ///
    /// ```swift
    /// let route = Route("/notes/:id")
    /// let follow = Route("/users/:id/follow", method: .create)
    /// ```
    ///
    /// - Parameters:
    ///   - pattern: The path pattern.
    ///   - method: The method ``Model/perform(route:options:)`` sends, or `nil`.
    public init(_ pattern: String, method: SyncMethod? = nil) {
        self.pattern = pattern
        self.method = method
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

    /// The names of the parameters, in order; a key path parameter's name is its whole key
    /// path.
    ///
    /// ```swift
    /// Route("/users/:user_id/invites/:id").parameterNames  // ["user_id", "id"]
    /// Route("/categories/:category.name").parameterNames  // ["category.name"]
    /// ```
    public var parameterNames: [String] { segments.compactMap(\.parameter) }

    /// The path with every parameter filled in.
    ///
    /// ```swift
    /// try Route("/notes/:id").path(["id": "a/b"])  // "/notes/a%2Fb"
    /// ```
    ///
    /// - Parameter values: The value of each parameter, or of the first key of a key path
    ///   parameter (a query or fragment in the pattern is kept as it is).
    /// - Returns: The path.
    /// - Throws: ``SyncError/missingRouteParameter(_:route:)`` when a parameter has no value
    ///   (or `null`), naming the part of a key path that has none;
    ///   ``SyncError/unsafePathSegment(_:)`` when a value is empty, `.` or `..`.
    public func path(_ values: [String: JSONValue]) throws(SyncError) -> String {
        try path(value: { name in values[name] }, member: { object, key in object[key] })
    }

    /// The path with every parameter filled in by `value`, a key path's later keys read from
    /// objects by `member`.
    func path(
        value: (String) -> JSONValue?,
        member: (JSONObject, String) -> JSONValue?
    ) throws(SyncError) -> String {
        var result = ""
        for segment in segments {
            switch segment {
            case .literal(let text):
                result += text
            case .parameter(let name):
                result += try fill(name, value: value, member: member)
            }
        }
        return result
    }

    /// One parameter's text: the value of its longest leading key path that has one, then
    /// the later keys through nested objects; what is left after a value that is not an
    /// object is literal text.
    private func fill(
        _ name: String,
        value: (String) -> JSONValue?,
        member: (JSONObject, String) -> JSONValue?
    ) throws(SyncError) -> String {
        let keys = name.split(separator: ".").map(String.init)
        for count in stride(from: keys.count, to: 0, by: -1) {
            guard var current = value(keys[..<count].joined(separator: ".")), !current.isNull else { continue }
            var index = count
            while index < keys.count, let object = current.objectValue {
                guard let next = member(object, keys[index]), !next.isNull else {
                    throw .missingRouteParameter(keys[...index].joined(separator: "."), route: pattern)
                }
                current = next
                index += 1
            }
            return try URLPath.recordSegment(for: current) + keys[index...].map { "." + $0 }.joined()
        }
        throw .missingRouteParameter(keys.first ?? name, route: pattern)
    }

    /// The parameters of a path that matches the route, percent-decoded; `nil` when it does
    /// not match.
    ///
    /// A key path parameter is named by its key path; when the text ends with the key path's
    /// tail (`.json` of `:name.json`), that tail is read as literal text and the parameter is
    /// named by the keys before it.
    ///
    /// ```swift
    /// Route("/users/:user_id/invites/:id").parameters(in: "/users/1/invites/7?x=1")  // ["user_id": "1", "id": "7"]
    /// Route("/files/:name.json").parameters(in: "/files/report.json")              // ["name": "report"]
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
                let (key, raw) = Self.split(String(rest[..<end]), of: name)
                values[key] = raw.removingPercentEncoding ?? raw
                rest = rest[end...]
            }
        }
        return rest.isEmpty || rest == "/" ? values : nil
    }

    /// A matched parameter's name and text, with a key path's literal tail taken off the text.
    private static func split(_ text: String, of name: String) -> (name: String, text: String) {
        let keys = name.split(separator: ".")
        for count in keys.indices.dropFirst() {
            let tail = keys[count...].map { "." + $0 }.joined()
            if text.count > tail.count, text.hasSuffix(tail) {
                return (keys[..<count].joined(separator: "."), String(text.dropLast(tail.count)))
            }
        }
        return (name, text)
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
                // A `.` followed by a name continues a key path.
                while end < pattern.endIndex, pattern[end] == ".",
                    pattern.index(after: end) < pattern.endIndex, Self.isNameCharacter(pattern[pattern.index(after: end)])
                {
                    end = pattern.index(after: end)
                    while end < pattern.endIndex, Self.isNameCharacter(pattern[end]) { end = pattern.index(after: end) }
                }
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
