/// App attribute names ↔ wire names: a convention for every key (nested objects included)
/// and, on top, remote names for particular attributes (NSRails' property mapping) and key
/// paths that keep a nested wire value in a flat attribute (RestKit's key-path mappings).
///
/// ```swift
/// var keys = KeyMapping(.snakeCase)
/// keys.names["id"] = "nid"                    // Drupal's node id
/// keys.paths["authorName"] = "author.name"    // {"author": {"name": …}} ↔ authorName
/// keys.wireName(for: "dueAt")                 // "due_at"
/// keys.appName(for: "nid")                    // "id"
/// ```
public struct KeyMapping: Sendable, Hashable {
    /// How every key is spelled on the wire, at every depth.
    public var convention: KeyConvention
    /// Wire names of particular top-level attributes, keyed by their app names; they win
    /// over the convention in both directions.
    public var names: [String: String]
    /// Dot-separated wire key paths of particular attributes, keyed by their app names: the
    /// attribute is read from that place in nested objects and written back to it (RestKit's
    /// `"author.name": "authorName"` attribute mapping). They win over ``names`` and the
    /// convention, and are spelled as on the wire.
    ///
    /// Reading `{"author": {"id": 3, "name": "Ann"}}` with `["authorName": "author.name"]`
    /// gives `authorName: "Ann"` and `author: {"id": 3}`: the value moves out of its object,
    /// and an object left empty goes too. When the path is missing, or passes through a value
    /// that is not an object, the attribute is left out and the wire value stays as it is.
    /// Writing puts the value back inside the object of the same name, beside that object's
    /// other keys; a value that is not an object at a path's place is replaced by one.
    ///
    /// ```swift
    /// var format = WireFormat.rails
    /// format.keys.paths["authorName"] = "author.name"
    /// ```
    public var paths: [String: String]

    /// Creates a mapping.
    ///
    /// ```swift
    /// let keys = KeyMapping(.snakeCase, names: ["body": "content"], paths: ["authorName": "author.name"])
    /// ```
    ///
    /// - Parameters:
    ///   - convention: The spelling of every key on the wire.
    ///   - names: Remote names of particular attributes, keyed by app name.
    ///   - paths: Wire key paths of particular attributes, keyed by app name.
    public init(_ convention: KeyConvention = .unchanged, names: [String: String] = [:], paths: [String: String] = [:]) {
        self.convention = convention
        self.names = names
        self.paths = paths
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
    var isIdentity: Bool {
        convention == .unchanged && names.allSatisfy { $0.key == $0.value } && paths.isEmpty
    }

    /// The wire name of a top-level attribute, or its key path.
    ///
    /// ```swift
    /// KeyMapping(.snakeCase, names: ["body": "content"]).wireName(for: "body")  // "content"
    /// KeyMapping(paths: ["authorName": "author.name"]).wireName(for: "authorName")  // "author.name"
    /// ```
    ///
    /// - Parameter appName: The app's name for it.
    /// - Returns: Its name (or dot-separated key path) on the wire.
    public func wireName(for appName: String) -> String {
        paths[appName] ?? names[appName] ?? convention.wireName(for: appName)
    }

    /// The app name of a top-level wire attribute, or of a key path in ``paths``.
    ///
    /// ```swift
    /// KeyMapping(.snakeCase, names: ["body": "content"]).appName(for: "content")  // "body"
    /// KeyMapping(paths: ["authorName": "author.name"]).appName(for: "author.name")  // "authorName"
    /// ```
    ///
    /// - Parameter wireName: The server's name (or key path) for it.
    /// - Returns: Its name in the app.
    public func appName(for wireName: String) -> String {
        if let mapped = paths.first(where: { $0.value == wireName }) { return mapped.key }
        if let mapped = names.first(where: { $0.value == wireName }) { return mapped.key }
        return convention.appName(for: wireName)
    }

    /// The attributes with wire names, nested objects converted by the convention.
    ///
    /// Attributes with a key path go in last, so that they join an object of the same name
    /// instead of being replaced by it.
    func toWire(_ attributes: Attributes) -> Attributes {
        guard !isIdentity else { return attributes }
        var result = Attributes()
        for (key, value) in attributes where paths[key] == nil {
            result[wireName(for: key)] = convert(value, with: convention.wireName)
        }
        for (key, value) in attributes {
            guard let path = paths[key] else { continue }
            WireKeyPath(path).set(convert(value, with: convention.wireName), in: &result)
        }
        return result
    }

    /// The attributes with app names, nested objects converted by the convention.
    ///
    /// Values at the key paths are taken out first, so the objects that held them arrive
    /// without them.
    func toApp(_ attributes: Attributes) -> Attributes {
        guard !isIdentity else { return attributes }
        var wire = attributes
        var moved = Attributes()
        for (appName, path) in paths.sorted(by: { $0.key < $1.key }) {
            if let value = WireKeyPath(path).remove(from: &wire) { moved[appName] = convert(value, with: convention.appName) }
        }
        var result = Attributes()
        for (key, value) in wire { result[appName(for: key)] = convert(value, with: convention.appName) }
        for (key, value) in moved { result[key] = value }
        return result
    }

    /// A wire path of nested errors (`invites[1].email_address`) with app names; a path
    /// that starts with one of ``paths`` starts with its attribute.
    func appPath(for wirePath: String) -> String {
        for (appName, path) in paths where wirePath.hasPrefix(path) {
            let rest = wirePath.dropFirst(path.count)
            if rest.isEmpty || rest.first == "." || rest.first == "[" { return appName + rest }
        }
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
