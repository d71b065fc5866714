import Foundation

extension SyncRequest {
    /// The `read` of one record, `collection/id` (the id encoded as one path segment, as
    /// `Model.url()` does), in a class's wire format: its path suffix and query parameters.
    ///
    /// A path that parses as a relative URL travels as a path (``RequestTarget/path(_:)``):
    /// a backend that reads ``path`` (`SQLiteSync` answering in place) never builds the `URL`,
    /// and one that reads ``url`` gets what `URL(string:)` makes of the path, as before.
    ///
    /// - Returns: The request, and its path as built.
    /// - Throws: ``SyncError/missingURL(_:)`` when the path is not a valid URL.
    static func recordRead(
        collection: String,
        id: JSONValue,
        format: WireFormat
    ) throws(SyncError) -> (request: SyncRequest, path: String) {
        // The usual read, an integer id under a plain collection path, is built in one pass.
        if case .int(let int) = id, format.pathSuffix.isEmpty,
            let path = RequestTarget.recordPath(collection: collection, id: int)
        {
            return (SyncRequest(method: .read, target: .path(path), query: readQuery(of: format)), path)
        }
        let path = format.suffixed(IdentityMap.recordPath(collection: collection, id: id))
        let target: RequestTarget
        if let valid = RequestTarget(validPath: path) {
            target = valid
        } else if let url = URL(string: path) {
            target = .url(url)
        } else {
            throw .missingURL("\(path) is not a valid URL")
        }
        return (SyncRequest(method: .read, target: target, query: readQuery(of: format)), path)
    }

    /// The query parameters of a format's reads; most formats add none, and skip the sorting,
    /// mapping and joining of empty lists.
    private static func readQuery(of format: WireFormat) -> [URLQueryItem] {
        format.query.isEmpty
            ? [] : format.queryItems(then: [:]).map { URLQueryItem(name: $0.key, value: $0.value) }
    }
}
