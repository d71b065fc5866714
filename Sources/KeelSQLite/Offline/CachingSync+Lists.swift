import Foundation
import Keel

extension CachingSync {
    /// The records of a list answer: the body when it is a list, else the list at the
    /// request's `SyncRequest.listKeyPath` (DRF's `results`); `nil` for anything else.
    static func list(in body: JSONValue?, at listKeyPath: String?) -> [JSONValue]? {
        if let list = body?.arrayValue { return list }
        guard let listKeyPath else { return nil }
        var value = body
        for key in listKeyPath.split(separator: ".") { value = value?.objectValue?[String(key)] }
        return value?.arrayValue
    }

    /// Whether a list answer holds the whole list rather than a page of it: no `Link` header
    /// names a next page, and an envelope says it has no next page (`"next": null`, as DRF's
    /// does). An envelope that does not say (a cursor kept in `meta`) may be a first page.
    static func isWholeList(_ response: SyncResponse) -> Bool {
        guard LinkHeader.links(in: response.headers["link"])["next"] == nil else { return false }
        guard let envelope = response.body?.objectValue else { return true }
        return envelope["next"]?.isNull == true
    }

    /// `body` with its records replaced by `list`: `list` itself for a body that is a list,
    /// else the envelope with `list` at `listKeyPath`; `body` when `list` is no list.
    static func replacingList(in body: JSONValue?, at listKeyPath: String?, with list: JSONValue?) -> JSONValue? {
        guard let list, list.arrayValue != nil else { return body }
        guard let listKeyPath, let body, body.arrayValue == nil else { return list }
        return body.setting(list, at: listKeyPath.split(separator: ".").map(String.init))
    }

    /// The local answer to a plain (not JSON:API) read: a record as stored; a list's
    /// records as a ``LocalListQuery`` keeps them, in the shape of the request's
    /// `SyncRequest.listKeyPath`. A page cut from the list names its neighbours as the
    /// server would: DRF's envelope carries `count`, `next` and `previous`; a bare list, a
    /// `Link` header.
    ///
    /// - Throws: `SyncError.unevaluableQuery(parameter:reason:)` for a list read with a
    ///   parameter the local copy cannot evaluate as the server would.
    func readLocalList(_ request: SyncRequest, scoped: ScopedRead?) async throws(SyncError) -> SyncResponse {
        let query = ResourcePath.queryItems(of: request)
        let bare = scoped == nil ? Self.bareRead(of: request, at: ResourcePath(request.url).path) : request
        var response = try await readLocal(bare, scoped: scoped)
        guard let list = response.body?.arrayValue else { return response }
        let stored = list.compactMap(\.objectValue)
        let listQuery = try LocalListQuery(query, records: stored, style: request.pageStyle)
        let (page, total) = listQuery.answer(stored)
        let records = JSONValue.array(page.map(JSONValue.object))
        let next = listQuery.neighbour(1, of: query, total: total).map { Self.url(request.url, query: $0) }
        let previous = listQuery.neighbour(-1, of: query, total: total).map { Self.url(request.url, query: $0) }
        switch request.listKeyPath {
        case "results":
            response.body = [
                "count": .int(total), "next": next.map(JSONValue.string) ?? .null,
                "previous": previous.map(JSONValue.string) ?? .null, "results": records,
            ]
        case let listKeyPath?:
            response.body = JSONValue.object([:]).setting(
                records,
                at: listKeyPath.split(separator: ".").map(String.init)
            )
        case nil:
            response.body = records
            let links = [(next, "next"), (previous, "prev")].compactMap { url, relation in
                url.map { "<\($0)>; rel=\"\(relation)\"" }
            }
            if !links.isEmpty { response.headers["link"] = links.joined(separator: ", ") }
        }
        return response
    }

    /// `url` with `query` as its query.
    static func url(_ url: URL, query: [URLQueryItem]) -> String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.queryItems = query
        return components?.string ?? url.absoluteString
    }
}

extension JSONValue {
    /// The value with `value` at a key path of objects, made where missing.
    func setting(_ value: JSONValue, at path: [String]) -> JSONValue {
        guard let key = path.first else { return value }
        var object = objectValue ?? [:]
        object[key] = (object[key] ?? .object([:])).setting(value, at: Array(path.dropFirst()))
        return .object(object)
    }
}
