import Foundation
import Keel
import KeelSQLite
import Synchronization

/// JSON:API models for the offline cache's tests: plural dasherized types (`authors`,
/// `articles`, `comments`), camelCase members.
enum JSONAPIOfflineModels {
    final class Author: Model {
        override class var urlRoot: String? { "/authors" }
        override class var wireFormat: WireFormat { .jsonAPI }
    }

    final class Comment: Model {
        static let author = BelongsTo<Author>("author")
        override class var urlRoot: String? { "/comments" }
        override class var wireFormat: WireFormat { .jsonAPI }
        override class var relations: [any Relation] { [author] }
    }

    final class Article: Model {
        static let author = BelongsTo<Author>("author")
        static let comments = HasMany<Comment>("comments")
        override class var urlRoot: String? { "/articles" }
        override class var wireFormat: WireFormat { .jsonAPI }
        override class var relations: [any Relation] { [author, comments] }
    }

    /// A resource object.
    static func resource(
        _ type: String,
        _ id: String,
        _ attributes: JSONObject,
        relationships: JSONObject = [:]
    ) -> JSONValue {
        var object: JSONObject = ["type": .string(type), "id": .string(id), "attributes": .object(attributes)]
        if !relationships.isEmpty { object["relationships"] = .object(relationships) }
        return .object(object)
    }

    /// `{"data": {"type", "id"}}`.
    static func link(_ type: String, _ id: String) -> JSONValue {
        ["data": ["type": .string(type), "id": .string(id)]]
    }

    /// Two articles by author 9, the first with comment 31 (by author 9), as a server answers
    /// `GET /articles?include=author,comments`.
    static let listDocument: JSONValue = [
        "data": [
            resource(
                "articles",
                "1",
                ["title": "Engines", "body": "Steam", "version": 3],
                relationships: [
                    "author": link("authors", "9"), "comments": ["data": [["type": "comments", "id": "31"]]],
                ]
            ),
            resource(
                "articles",
                "2",
                ["title": "Sails", "body": "Wind", "version": 1],
                relationships: ["author": link("authors", "9"), "comments": ["data": []]]
            ),
        ],
        "included": [
            resource("authors", "9", ["name": "Ada"]),
            resource("comments", "31", ["body": "First!"], relationships: ["author": link("authors", "9")]),
        ],
        "links": ["self": "/articles", "next": .null],
        "meta": ["total": 2],
    ]

    /// A cache over a JSON:API remote and a local store in memory, knowing the types given
    /// (by default the three).
    static func cache(
        remote: JSONAPIRemote,
        registering types: [Model.Type] = [Author.self, Article.self, Comment.self]
    ) throws -> CachingSync {
        var configuration = CachingSync.Configuration()
        configuration.sendsImmediately = false
        for type in types { configuration.register(type) }
        return CachingSync(remote: remote, local: try SQLiteOfflineStore.inMemory(), configuration: configuration)
    }
}

/// A JSON:API server for the caching tests: answers each read with the document stored for
/// its path (whatever its query), each write with the resource it carries; can be switched off.
final class JSONAPIRemote: Sync {
    private struct State {
        var isOnline = true
        var documents: [String: JSONValue] = [:]
        var received: [SyncRequest] = []
    }

    private let state = Mutex(State())

    var isOnline: Bool {
        get { state.withLock { $0.isOnline } }
        set { state.withLock { $0.isOnline = newValue } }
    }

    /// Every request that reached the server, in order.
    var received: [SyncRequest] { state.withLock { $0.received } }

    /// Answers reads of `path` with `document`.
    func serve(_ document: JSONValue, at path: String) {
        state.withLock { $0.documents[path] = document }
    }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        let document = try state.withLock { (state) throws(SyncError) -> JSONValue? in
            guard state.isOnline else { throw .transport("Could not connect to the server.") }
            state.received.append(request)
            return state.documents[request.url.path()]
        }
        let headers = ["content-type": JSONAPIFormat.mediaType]
        switch request.method {
        case .read:
            guard let document else { throw .httpStatus(404, body: nil) }
            return SyncResponse(status: 200, headers: headers, body: document)
        case .delete:
            return SyncResponse(status: 204)
        default:
            return SyncResponse(status: 200, headers: headers, body: ["data": request.body?["data"] ?? .null])
        }
    }
}

/// A real server's backend behind a switch: while off, every request fails as a network
/// without a connection does, and nothing reaches the server.
final class ReachabilitySwitch: Sync {
    let base: any Sync
    private let reachable = Mutex(true)

    init(_ base: any Sync) { self.base = base }

    var isReachable: Bool {
        get { reachable.withLock { $0 } }
        set { reachable.withLock { $0 = newValue } }
    }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        guard isReachable else { throw .transport("Could not connect to the server.") }
        return try await base.perform(request)
    }
}
