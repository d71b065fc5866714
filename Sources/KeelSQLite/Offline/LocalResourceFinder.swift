import Foundation
import Keel

/// Finds, in the local copy, the resources a local JSON:API answer includes: those the
/// request's `include` paths reach from its primary resources, through the stored linkage.
///
/// A linked resource is found in its type's collection (`CachingSync.resourceTypes`), else
/// in the one the server routes the type at by default beside the primary collection
/// (``JSONAPIRoute``), where the cache stored it while the type had no collection; one not
/// stored there, or deleted locally, is left out, and the linkage names it alone. Each
/// collection is read once per answer.
struct LocalResourceFinder {
    let local: any OfflineStore
    let collections: [String: String]
    /// The collection of the primary resources, and their type.
    let primary: (collection: String, type: String?)
    /// The stored resources of each collection read so far, by id.
    private var stored: [String: [String: JSONObject]] = [:]

    init(local: any OfflineStore, collections: [String: String], besides primary: String, primaryType: String?) {
        self.local = local
        self.collections = collections
        self.primary = (primary, primaryType)
    }

    /// The resources `paths` (each a list of relationship names) reach from `primary`, once
    /// each and none of the primary ones, in the order they are met.
    mutating func included(of primary: [JSONObject], paths: [[String]]) async throws(SyncError) -> [JSONValue] {
        var seen = Set(primary.compactMap(JSONAPIResource.identity))
        var included: [JSONValue] = []
        for path in paths {
            var level = primary
            for name in path {
                var next: [JSONObject] = []
                for resource in level {
                    for identifier in JSONAPIResource.linkage(of: resource, named: name) {
                        guard let found = try await self.resource(identifiedBy: identifier),
                            let identity = JSONAPIResource.identity(of: found)
                        else { continue }
                        next.append(found)
                        if seen.insert(identity).inserted { included.append(.object(found)) }
                    }
                }
                level = next
            }
        }
        return included
    }

    /// The stored resource a resource identifier names: in its type's collection, else in
    /// its default route's.
    private mutating func resource(identifiedBy identifier: JSONObject) async throws(SyncError) -> JSONObject? {
        guard let type = identifier["type"]?.stringValue, let id = identifier["id"], !id.isNull else { return nil }
        let route = JSONAPIRoute.collection(of: type, besides: primary.collection, primaryType: primary.type)
        for collection in [collections[type], route].compactMap(\.self) {
            if let found = try await resource(CachePath.key(id), in: collection) { return found }
        }
        return nil
    }

    /// The stored resource with this key in a collection, reading the collection once.
    private mutating func resource(_ key: String, in collection: String) async throws(SyncError) -> JSONObject? {
        if stored[collection] == nil {
            let list = try await local.read(SyncRequest(method: .read, url: url(collection))).body?.arrayValue ?? []
            var byID: [String: JSONObject] = [:]
            for case .object(let record) in list {
                if let key = record[local.idAttribute].map(CachePath.key) { byID[key] = record }
            }
            stored[collection] = byID
        }
        return stored[collection]?[key]
    }

    private func url(_ path: String) -> URL {
        URL(string: path) ?? URL(filePath: path)
    }
}
