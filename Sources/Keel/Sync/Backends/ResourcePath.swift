package import Foundation

/// A request URL's path split the REST way: the collection path and, for a record, its id.
///
/// `/notes` is the collection `/notes`; `/notes/7` may be the record `7` of `/notes`, or a
/// collection of its own (`/users/7/invites`). Backends decide with what they store.
/// Segments stay percent-encoded in ``collection`` (so `/users/a%2Fb` is one segment) and
/// are decoded in ``lastSegment``.
package struct ResourcePath: Hashable, Sendable {
    /// The whole path, percent-encoded, without a trailing slash, such as `/notes/7`.
    package let path: String
    /// The path without its last segment, such as `/notes`; `nil` for a single segment.
    package let parent: String?
    /// The decoded last segment, such as `7` or `a/b`.
    package let lastSegment: String?

    /// Splits a request's URL.
    package init(_ url: URL) {
        self.init(encodedPath: url.path(percentEncoded: true))
    }

    /// Splits a request's path, as ``init(_:)`` splits its URL, without making the URL of a
    /// request built by path (a read by id).
    package init(_ request: borrowing SyncRequest) {
        self.init(encodedPath: request.target.percentEncodedPath)
    }

    /// Splits a URL's path, percent-encoded.
    private init(encodedPath encoded: String) {
        if let split = Self(normalized: encoded) {
            self = split
            return
        }
        let segments = encoded.split(separator: "/", omittingEmptySubsequences: true)
        path = "/" + segments.joined(separator: "/")
        if segments.count > 1 {
            parent = "/" + segments.dropLast().joined(separator: "/")
        } else {
            parent = nil
        }
        lastSegment = segments.last.map { String($0).removingPercentEncoding ?? String($0) }
    }

    /// Splits a path that is already in its normal form, `/notes/7`: a slash before each
    /// segment, no empty segment, no trailing slash and no `%` in the last segment (so it
    /// decodes to itself); `nil` for any other path, which the general split handles.
    ///
    /// The result is the general split's, found in one pass over the bytes without
    /// building segments or decoding.
    private init?(normalized encoded: String) {
        var text = encoded
        // The parent and the last segment are made from the bytes on either side of the last
        // slash, which is ASCII, so each side is whole UTF-8: no string indices or substrings.
        let split = text.withUTF8 { bytes -> (parent: String?, lastSegment: String)? in
            guard bytes.count > 1, bytes[0] == UInt8(ascii: "/") else { return nil }
            var lastSlash = 0
            for index in 1..<bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "/"):
                    if lastSlash == index - 1 { return nil }
                    lastSlash = index
                case UInt8(ascii: "%"):
                    return nil
                default:
                    continue
                }
            }
            guard lastSlash != bytes.count - 1 else { return nil }
            let parent =
                lastSlash == 0
                ? nil : String(decoding: UnsafeBufferPointer(rebasing: bytes[..<lastSlash]), as: UTF8.self)
            let lastSegment = String(decoding: UnsafeBufferPointer(rebasing: bytes[(lastSlash + 1)...]), as: UTF8.self)
            return (parent, lastSegment)
        }
        guard let split else { return nil }
        path = text
        parent = split.parent
        lastSegment = split.lastSegment
    }

    /// The text an id has as a path segment, to match a record against ``lastSegment``.
    package static func segment(for id: JSONValue) -> String {
        switch id {
        case .string(let string): return string
        case .int(let int): return URLPath.decimalText(int)
        case .double(let double): return Int(exactly: double).map(String.init) ?? String(double)
        default: return id.description
        }
    }

    /// The request's query parameters: those in its URL, then its own.
    package static func queryItems(of request: SyncRequest) -> [URLQueryItem] {
        let fromURL = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return fromURL + request.query
    }

    /// Whether a record matches every query parameter by the text of its attribute values.
    package static func matches(_ record: Attributes, query: [URLQueryItem]) -> Bool {
        query.allSatisfy { item in
            guard let value = record[item.name] else { return false }
            return segment(for: value) == (item.value ?? "")
        }
    }
}
