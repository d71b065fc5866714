import Foundation
import Keel

/// Where a queued change mentions temporary ids, and the change with one of them replaced by
/// the server's id: the one rule both the store (durably) and a running replay (in memory)
/// apply, so the two never disagree.
///
/// A temporary id is mentioned by a path segment of the URL or the collection
/// (`/users/local-1/invites`), a query parameter's value (`?user_id=local-1`), a string value
/// anywhere in the body (`"user_id": "local-1"`, `"invites": [{"user": "local-1"}]`), or the
/// record id. Only whole values count: `local-10` does not mention `local-1`.
enum TemporaryIDRewrite {
    /// The temporary ids a change mentions; a create's own id is left out, since the change
    /// that assigns it never needs rewriting.
    static func mentions(of change: QueuedChange) -> Set<String> {
        var found: Set<String> = []
        if change.method != .create, TemporaryID.isTemporary(change.recordID) { found.insert(change.recordID) }
        for segment in pathSegments(of: change.url.path(percentEncoded: false)) + pathSegments(of: change.collection)
        where TemporaryID.isTemporary(segment) {
            found.insert(segment)
        }
        for item in URLComponents(url: change.url, resolvingAgainstBaseURL: false)?.queryItems ?? [] {
            if let value = item.value, TemporaryID.isTemporary(value) { found.insert(value) }
        }
        collectStrings(in: change.body, into: &found)
        if change.method == .create { found.remove(change.recordID) }
        return found
    }

    /// The change with every mention of `temporaryID` replaced: by `serverID` in the body,
    /// and by its text (`key`) in the URL, the collection path and the record id.
    static func replacing(_ temporaryID: String, with serverID: JSONValue, in change: QueuedChange) -> QueuedChange {
        let key = CachePath.key(serverID)
        return QueuedChange(
            sequence: change.sequence,
            method: change.method,
            url: replacing(temporaryID, with: key, in: change.url),
            collection: replacing(temporaryID, with: key, inPath: change.collection),
            recordID: change.recordID == temporaryID ? key : change.recordID,
            body: change.body.map { replacing(temporaryID, with: serverID, in: $0) },
            headers: change.headers,
            idempotencyKey: change.idempotencyKey,
            baseVersion: change.baseVersion,
            state: change.state,
            rootKey: change.rootKey
        )
    }

    /// A JSON value with every string equal to `temporaryID`, at any depth, replaced.
    static func replacing(_ temporaryID: String, with serverID: JSONValue, in value: JSONValue) -> JSONValue {
        switch value {
        case .string(let string):
            return string == temporaryID ? serverID : value
        case .array(let array):
            return .array(array.map { replacing(temporaryID, with: serverID, in: $0) })
        case .object(let object):
            return .object(
                JSONObject(
                    uniqueKeysWithLastValues: object.map {
                        ($0.key, replacing(temporaryID, with: serverID, in: $0.value))
                    }
                )
            )
        default:
            return value
        }
    }

    /// The URL with each path segment and query value equal to `temporaryID` replaced by `key`.
    static func replacing(_ temporaryID: String, with key: String, in url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        let segments = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false)
        let encodedKey = key.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? key
        components.percentEncodedPath = segments.map { $0 == temporaryID ? encodedKey : String($0) }
            .joined(separator: "/")
        if let items = components.queryItems, items.contains(where: { $0.value == temporaryID }) {
            components.queryItems = items.map { $0.value == temporaryID ? URLQueryItem(name: $0.name, value: key) : $0 }
        }
        return components.url ?? url
    }

    /// A collection path (`/users/local-1/invites`) with the segments equal to `temporaryID`
    /// replaced by `key`.
    static func replacing(_ temporaryID: String, with key: String, inPath path: String) -> String {
        guard pathSegments(of: path).contains(temporaryID) else { return path }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return CachePath.normalized(segments.map { $0 == temporaryID ? key : String($0) }.joined(separator: "/"))
    }

    private static func pathSegments(of path: String) -> [String] {
        path.split(separator: "/").map(String.init)
    }

    private static func collectStrings(in value: JSONValue?, into found: inout Set<String>) {
        switch value {
        case .string(let string):
            if TemporaryID.isTemporary(string) { found.insert(string) }
        case .array(let array):
            for element in array { collectStrings(in: element, into: &found) }
        case .object(let object):
            for element in object { collectStrings(in: element.value, into: &found) }
        default:
            break
        }
    }
}
