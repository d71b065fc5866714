import Foundation
import Keel
import KeelSQLite
import KeelTestServer
import Synchronization

/// The test server's djangorestframework-jsonapi resources (`/jsonapi/…`, types named after
/// the Django models) and its Atomic Operations endpoint, for replaying an offline queue.
enum AtomicReplayModels {
    final class Author: Model {
        override class var urlRoot: String? { "/jsonapi/authors" }
        override class var wireFormat: WireFormat { .jsonAPI(keys: .snakeCase, typeNaming: .className) }
    }

    final class Article: Model {
        static let author = BelongsTo<Author>("author")
        static let comments = HasMany<Comment>("comments")
        override class var urlRoot: String? { "/jsonapi/articles" }
        override class var wireFormat: WireFormat { .jsonAPI(keys: .snakeCase, typeNaming: .className) }
        override class var relations: [any Relation] { [author, comments] }
    }

    final class Comment: Model {
        static let article = BelongsTo<Article>("article")
        static let author = BelongsTo<Author>("author")
        override class var urlRoot: String? { "/jsonapi/comments" }
        override class var wireFormat: WireFormat { .jsonAPI(keys: .snakeCase, typeNaming: .className) }
        override class var relations: [any Relation] { [article, author] }
    }

    /// The server's endpoint.
    static let operations = AtomicOperations(endpoint: URL(string: "/jsonapi/operations"))

    /// A cache that only queues writes (as while offline) until `replay()`.
    static func cache(remote: any Sync, file: URL, atomic: AtomicOperations? = operations) throws -> CachingSync {
        var configuration = CachingSync.Configuration()
        configuration.sendsImmediately = false
        configuration.atomicOperations = atomic
        return CachingSync(remote: remote, local: try SQLiteOfflineStore(fileURL: file), configuration: configuration)
    }

    /// A resource as another client reads it: `data` of `GET path` in JSON:API.
    static func serverResource(_ path: String, at baseURL: URL) async throws -> JSONValue? {
        let request = SyncRequest(method: .read, url: url(path), headers: ["Accept": JSONAPIFormat.mediaType])
        return try await RESTSync(baseURL: baseURL).perform(request).body?["data"]
    }

    /// The names of every author on the server, one per record, following `links.next`.
    static func serverAuthorNames(at baseURL: URL) async throws -> [String] {
        var names: [String] = []
        var next: URL? = url("/jsonapi/authors?page%5Bsize%5D=100")
        while let page = next {
            let request = SyncRequest(method: .read, url: page, headers: ["Accept": JSONAPIFormat.mediaType])
            let body = try await RESTSync(baseURL: baseURL).perform(request).body
            names += body?["data"]?.arrayValue?.compactMap { $0["attributes"]?["name"]?.stringValue } ?? []
            next = body?["links"]?["next"]?.stringValue.flatMap(URL.init(string:))
        }
        return names
    }
}

/// A remote that records the path of every request it forwards.
final class PathRecordingSync: Sync {
    let base: any Sync
    private let paths = Mutex<[String]>([])

    init(_ base: any Sync) { self.base = base }

    /// The paths of the requests forwarded, in order.
    var received: [String] { paths.withLock { $0 } }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        paths.withLock { $0.append(request.path) }
        return try await base.perform(request)
    }
}

/// A remote whose connection breaks after the server answered a request to one path: the
/// answer is read, then `onAnswer` runs (a test stops its server there) and the caller gets
/// a transport error instead, as when the connection dies before the answer arrives.
final class AnswerLosingSync: Sync {
    let base: any Sync
    let path: String
    let onAnswer: @Sendable () async -> Void

    init(_ base: any Sync, losingAnswersTo path: String, onAnswer: @escaping @Sendable () async -> Void) {
        self.base = base
        self.path = path
        self.onAnswer = onAnswer
    }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        let response = try await base.perform(request)
        guard request.path == path else { return response }
        await onAnswer()
        throw .transport("The network connection was lost.")
    }
}
