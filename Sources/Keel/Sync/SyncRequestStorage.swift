import Foundation

/// The fields of a ``SyncRequest``, one stored property each (see ``SyncRequest`` for what
/// each one means).
struct SyncRequestFields: Sendable, Hashable {
    var method: SyncMethod
    var target: RequestTarget
    var body: JSONValue?
    var query: [URLQueryItem]
    var headers: [String: String]
    var timeout: Duration?
    var maximumResponseBytes: Int?
    var emulateHTTP: Bool?
    var emulateJSON: Bool?
    var context: JSONObject
    var requestBody: RequestBody?
    var rootKey: String?
    var listKeyPath: String?
    var pageStyle: PageStyle?
    var uploadProgressHandler: UploadProgressHandler?

    /// The fields of a request with every field but these at its default.
    init(
        method: SyncMethod,
        target: RequestTarget,
        body: JSONValue? = nil,
        query: [URLQueryItem],
        headers: [String: String] = [:],
        timeout: Duration? = nil,
        emulateHTTP: Bool? = nil,
        emulateJSON: Bool? = nil,
        context: JSONObject = [:]
    ) {
        self.method = method
        self.target = target
        self.body = body
        self.query = query
        self.headers = headers
        self.timeout = timeout
        self.emulateHTTP = emulateHTTP
        self.emulateJSON = emulateJSON
        self.context = context
    }
}

/// The one reference that a ``SyncRequest`` and its copies share until one of them changes a
/// field (``SyncRequest`` copies it first when it is shared).
final class SyncRequestStorage: @unchecked Sendable {
    /// The fields; changed only through a request that holds the only reference.
    @exclusivity(unchecked) var fields: SyncRequestFields

    /// Holds `fields`.
    init(_ fields: SyncRequestFields) {
        self.fields = fields
    }
}
