import Foundation
import Synchronization

/// A model class's response mappings, registered and removed at run time from any thread:
/// RestKit's `addResponseDescriptor` and `removeResponseDescriptor`.
///
/// Every model class has its own table, ``Model/responseMappings`` (a subclass does not
/// inherit its superclass's). When a response arrives for a model of the class or a
/// collection of them, the most recently registered mapping whose route matches the
/// request's path and whose status codes hold the response's status says how to read it;
/// without one, the call's ``WireFormat`` reads it as before.
///
/// ```swift
/// let followers = ResponseMapping(route: "/users/:user_id/followers", keyPath: "data.users")
/// User.responseMappings.register(followers)
/// User.responseMappings.remove(followers)
/// ```
public final class ResponseMappings: Sendable {
    private let mappings = Lock<[ResponseMapping]>([])
    private static let tables = Lock<[ObjectIdentifier: ResponseMappings]>([:])
    /// Set by the first registration of any class: until then no response has a mapping, and
    /// a read by id skips looking up its class's table (a lock and a dictionary per record).
    private static let registeredOnce = Atomic<Bool>(false)

    /// Whether any class has registered a mapping since the process started.
    static var anyRegistered: Bool { registeredOnce.load(ordering: .acquiring) }

    private init() {}

    /// The table of a model class, created empty the first time it is asked for.
    static func of(_ type: Model.Type) -> ResponseMappings {
        tables.withLock { tables in
            if let table = tables[ObjectIdentifier(type)] { return table }
            let table = ResponseMappings()
            tables[ObjectIdentifier(type)] = table
            return table
        }
    }

    /// The mappings, in the order they were registered.
    ///
    /// ```swift
    /// User.responseMappings.all.count  // 1
    /// ```
    public var all: [ResponseMapping] { mappings.withLock { $0 } }

    /// Adds a mapping; it wins over those registered before it where both match.
    ///
    /// ```swift
    /// User.responseMappings.register(ResponseMapping(statusCodes: 422...422, keyPath: "errors"))
    /// ```
    ///
    /// - Parameter mapping: The mapping.
    public func register(_ mapping: ResponseMapping) {
        mappings.withLock { $0.append(mapping) }
        Self.registeredOnce.store(true, ordering: .releasing)
    }

    /// Removes every mapping equal to the given one.
    ///
    /// ```swift
    /// User.responseMappings.remove(followers)  // true
    /// ```
    ///
    /// - Parameter mapping: The mapping.
    /// - Returns: Whether there was one to remove.
    @discardableResult
    public func remove(_ mapping: ResponseMapping) -> Bool {
        mappings.withLock { mappings in
            let count = mappings.count
            mappings.removeAll { $0 == mapping }
            return mappings.count != count
        }
    }

    /// Removes every mapping, so the wire format reads every response again.
    ///
    /// ```swift
    /// User.responseMappings.removeAll()
    /// ```
    public func removeAll() {
        mappings.withLock { $0.removeAll() }
    }

    /// The mapping that reads a response to a request, with the parameters its route matched.
    ///
    /// - Parameters:
    ///   - url: The request's URL; a path under `baseURL` is matched without the base's path.
    ///     Made only when the class has mappings (a read by id carries a path).
    ///   - status: The response's status.
    ///   - baseURL: The base URL the request's URL was resolved against.
    /// - Complexity: O(*n*), where *n* is the number of mappings.
    func match(
        url: @autoclosure () -> URL,
        status: Int,
        baseURL: URL?
    ) -> (mapping: ResponseMapping, parameters: [String: String])? {
        let registered = all
        guard !registered.isEmpty else { return nil }
        let path = Self.relativePath(of: url(), under: baseURL)
        for mapping in registered.reversed() {
            if let parameters = mapping.parameters(matching: path, status: status) { return (mapping, parameters) }
        }
        return nil
    }

    /// A URL's path without the path of the base URL it is under.
    static func relativePath(of url: URL, under baseURL: URL?) -> String {
        let path = url.path(percentEncoded: true)
        guard let basePath = baseURL?.path(percentEncoded: true), basePath != "/", !basePath.isEmpty,
            url.host() == baseURL?.host()
        else { return path }
        let prefix = basePath.hasSuffix("/") ? String(basePath.dropLast()) : basePath
        guard path.hasPrefix(prefix + "/") else { return path }
        return String(path.dropFirst(prefix.count))
    }
}

extension Model {
    /// The class's response mappings: how the responses of particular routes and status
    /// codes are read (see ``ResponseMapping``); empty until one is registered.
    ///
    /// ```swift
    /// User.responseMappings.register(ResponseMapping(route: "/users/:id/profile", keyPath: "data"))
    /// ```
    public static var responseMappings: ResponseMappings { ResponseMappings.of(self) }
}
