import Foundation
public import Keel

extension CachingSync {
    /// A list URL that the offline cache answers with a subset of another collection's
    /// records: RestKit's fetch request blocks.
    ///
    /// A server that serves `/users/7/todos` returns records the app also knows under
    /// `/todos`. With a scoped list, the records of `/users/7/todos` are stored once, in
    /// `/todos`; a read of `/users/7/todos` from the local copy answers the stored todos the
    /// scope includes (`userId == 7`); and a complete answer from the server deletes only the
    /// local records in that scope that it no longer returns, never another user's todos.
    /// Register one with ``Configuration/registerList(_:in:matching:)`` or
    /// ``Configuration/registerList(_:in:scope:)``.
    ///
    /// ```swift
    /// var configuration = CachingSync.Configuration()
    /// configuration.registerList("/users/:id/todos", in: "/todos", matching: ["userId": "id"])
    /// ```
    public struct ScopedList: Sendable {
        /// The list's URL pattern, such as `/users/:id/todos`.
        public let route: Route
        /// The collection path its records are stored in, such as `/todos`.
        public let collection: String
        /// Whether a record of the collection belongs to the list, given the route's parameters.
        ///
        /// For a JSON:API list the record is the stored resource object
        /// (`record["attributes"]?["title"]`, `record["relationships"]?["article"]?["data"]?["id"]`).
        public let includes: @Sendable (_ record: Attributes, _ parameters: [String: String]) -> Bool

        /// Describes a scoped list.
        ///
        /// ```swift
        /// let mine = CachingSync.ScopedList(route: "/users/:id/todos", collection: "/todos") { record, parameters in
        ///     record["userId"] == .string(parameters["id"] ?? "")
        /// }
        /// ```
        ///
        /// - Parameters:
        ///   - route: The list's URL pattern.
        ///   - collection: The collection path its records are stored in.
        ///   - includes: Whether a record belongs to the list, given the route's parameters.
        public init(
            route: Route,
            collection: String,
            includes: @escaping @Sendable (_ record: Attributes, _ parameters: [String: String]) -> Bool
        ) {
            self.route = route
            self.collection = CachePath.normalized(collection)
            self.includes = includes
        }
    }
}

/// A read of a scoped list's URL: the list, its parameters and the request for its collection.
struct ScopedRead {
    let list: CachingSync.ScopedList
    let parameters: [String: String]
    /// The same read, of the whole collection the records are stored in.
    let collectionRequest: SyncRequest

    init?(_ request: SyncRequest, lists: [CachingSync.ScopedList]) {
        guard request.method == .read else { return nil }
        // As RestKit searches its fetch request blocks: the last one registered wins.
        for list in lists.reversed() {
            guard let parameters = list.route.parameters(in: request.path), let url = URL(string: list.collection)
            else { continue }
            self.list = list
            self.parameters = parameters
            var whole = request
            whole.url = url
            whole.query = []
            collectionRequest = whole
            return
        }
        return nil
    }

    /// Whether a stored record belongs to the list.
    func includes(_ record: JSONValue) -> Bool {
        guard let attributes = record.objectValue else { return false }
        return list.includes(attributes, parameters)
    }
}
