/// App attribute names ↔ wire names: a convention for every key (nested objects included)
/// and, on top, remote names for particular attributes (NSRails' property mapping).
///
/// ```swift
/// var keys = KeyMapping(.snakeCase)
/// keys.names["id"] = "nid"           // Drupal's node id
/// keys.wireName(for: "dueAt")        // "due_at"
/// keys.appName(for: "nid")           // "id"
/// ```
public struct KeyMapping: Sendable, Hashable {
    /// How every key is spelled on the wire, at every depth.
    public var convention: KeyConvention
    /// Wire names of particular top-level attributes, keyed by their app names; they win
    /// over the convention in both directions.
    public var names: [String: String]

    /// Creates a mapping.
    ///
    /// ```swift
    /// let keys = KeyMapping(.snakeCase, names: ["body": "content"])
    /// ```
    ///
    /// - Parameters:
    ///   - convention: The spelling of every key on the wire.
    ///   - names: Remote names of particular attributes, keyed by app name.
    public init(_ convention: KeyConvention = .unchanged, names: [String: String] = [:]) {
        self.convention = convention
        self.names = names
    }

    /// The same names in the app and on the wire.
    ///
    /// ```swift
    /// KeyMapping.unchanged.wireName(for: "dueAt")  // "dueAt"
    /// ```
    public static let unchanged = KeyMapping()

    /// camelCase in the app, snake_case on the wire.
    ///
    /// ```swift
    /// KeyMapping.snakeCase.wireName(for: "dueAt")  // "due_at"
    /// ```
    public static let snakeCase = KeyMapping(.snakeCase)

    /// Whether the mapping leaves every name as it is.
    var isIdentity: Bool { convention == .unchanged && names.allSatisfy { $0.key == $0.value } }

    /// The wire name of a top-level attribute.
    ///
    /// ```swift
    /// KeyMapping(.snakeCase, names: ["body": "content"]).wireName(for: "body")  // "content"
    /// ```
    ///
    /// - Parameter appName: The app's name for it.
    /// - Returns: Its name on the wire.
    public func wireName(for appName: String) -> String {
        names[appName] ?? convention.wireName(for: appName)
    }

    /// The app name of a top-level wire attribute.
    ///
    /// ```swift
    /// KeyMapping(.snakeCase, names: ["body": "content"]).appName(for: "content")  // "body"
    /// ```
    ///
    /// - Parameter wireName: The server's name for it.
    /// - Returns: Its name in the app.
    public func appName(for wireName: String) -> String {
        if let mapped = names.first(where: { $0.value == wireName }) { return mapped.key }
        return convention.appName(for: wireName)
    }

    /// The attributes with wire names, nested objects converted by the convention.
    func toWire(_ attributes: Attributes) -> Attributes {
        guard !isIdentity else { return attributes }
        var result = Attributes()
        for (key, value) in attributes { result[wireName(for: key)] = convert(value, with: convention.wireName) }
        return result
    }

    /// The attributes with app names, nested objects converted by the convention.
    func toApp(_ attributes: Attributes) -> Attributes {
        guard !isIdentity else { return attributes }
        var result = Attributes()
        for (key, value) in attributes { result[appName(for: key)] = convert(value, with: convention.appName) }
        return result
    }

    /// A wire path of nested errors (`invites[1].email_address`) with app names.
    func appPath(for wirePath: String) -> String {
        let end = wirePath.firstIndex { $0 == "." || $0 == "[" } ?? wirePath.endIndex
        var result = appName(for: String(wirePath[..<end]))
        var rest = wirePath[end...]
        while let separator = rest.first {
            result.append(separator)
            rest = rest.dropFirst()
            let next = rest.firstIndex { $0 == "." || $0 == "[" } ?? rest.endIndex
            let part = String(rest[..<next])
            result += separator == "." ? convention.appName(for: part) : part
            rest = rest[next...]
        }
        return result
    }

    private func convert(_ value: JSONValue, with rename: (String) -> String) -> JSONValue {
        guard convention != .unchanged else { return value }
        switch value {
        case .object(let object):
            var result = JSONObject()
            for (key, nested) in object { result[rename(key)] = convert(nested, with: rename) }
            return .object(result)
        case .array(let values):
            return .array(values.map { convert($0, with: rename) })
        default:
            return value
        }
    }
}
