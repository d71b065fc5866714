import Foundation
import Keel

/// Collection paths and record keys as the local store files them: the same normalization
/// as `SQLiteSync` (`notes/` and `/notes` are one collection, `7` and `7.0` one record).
enum CachePath {
    /// `/notes` for `notes/`, `/notes`, or `http://host/notes/`.
    static func normalized(_ path: String) -> String {
        ResourcePath(URL(string: path) ?? URL(filePath: path)).path
    }

    /// The collection and record id a request addresses: `/notes` and `7` for `/notes/7`;
    /// for a create or a list, the collection and `nil`.
    static func target(of request: SyncRequest) -> (collection: String, id: String?) {
        let resource = ResourcePath(request.url)
        if request.method == .create { return (resource.path, nil) }
        if request.method == .read, resource.parent == nil { return (resource.path, nil) }
        guard let parent = resource.parent, let id = resource.lastSegment else { return (resource.path, nil) }
        return (parent, id)
    }

    /// The text of an id as stored.
    static func key(_ id: JSONValue) -> String { ResourcePath.segment(for: id) }
}
