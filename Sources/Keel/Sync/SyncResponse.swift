public import Foundation

/// What a ``Sync`` backend answers.
///
/// ```swift
/// let response = SyncResponse(status: 201, body: ["id": 1, "title": "Hi"])
/// ```
public struct SyncResponse: Sendable, Hashable {
    /// The HTTP status (backends without HTTP use the matching status: 200, 201, 204).
    public var status: Int
    /// Response headers, with lower-case names.
    public var headers: [String: String]
    /// The decoded JSON body, or `nil` for an empty body.
    public var body: JSONValue?
    /// The absolute URL that answered (where redirects led), which relative links in the
    /// response resolve against; `nil` from backends that do not address records by URL.
    public var url: URL?

    /// Creates a response.
    ///
    /// ```swift
    /// let empty = SyncResponse(status: 204)
    /// ```
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: The headers; names are lower-cased.
    ///   - body: The JSON body.
    ///   - url: The absolute URL that answered.
    public init(status: Int = 200, headers: [String: String] = [:], body: JSONValue? = nil, url: URL? = nil) {
        self.status = status
        // No headers, as a store's answers have, need no lower-casing (nor an array between).
        self.headers =
            headers.isEmpty
            ? headers : Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
        self.url = url
    }

    /// Whether the status is in the 2xx range.
    ///
    /// ```swift
    /// SyncResponse(status: 204).isSuccess  // true
    /// ```
    public var isSuccess: Bool { (200..<300).contains(status) }
}
