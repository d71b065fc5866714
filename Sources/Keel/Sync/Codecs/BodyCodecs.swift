import Foundation

/// The ``BodyCodec``s a ``RESTSync`` reads and writes bodies with, in order of preference.
///
/// An answer is decoded by the first codec that names its media type exactly, else by the
/// first whose `+suffix` entry matches it; parameters (`; charset=utf-8`) and case are
/// ignored. `Accept` lists the first media type of each codec, in order.
///
/// ```swift
/// var api = RESTSync(baseURL: URL(string: "https://api.example.com")!)
/// api.codecs.register(PropertyListCodec())
/// api.codecs.acceptHeader  // "application/x-plist, application/json, application/x-www-form-urlencoded, text/plain"
/// ```
public struct BodyCodecs: Sendable {
    /// The codecs, the preferred first.
    public private(set) var all: [any BodyCodec]

    /// Creates a list of codecs.
    ///
    /// ```swift
    /// let jsonOnly = BodyCodecs([JSONBodyCodec()])
    /// ```
    ///
    /// - Parameter codecs: The codecs, the preferred first.
    public init(_ codecs: [any BodyCodec]) {
        all = codecs
    }

    /// JSON, then URL-encoded forms (``FormURLEncodedBodyCodec`` in the bracket notation),
    /// then plain text: what ``RESTSync`` uses unless told otherwise.
    ///
    /// ```swift
    /// BodyCodecs.standard.acceptHeader  // "application/json, application/x-www-form-urlencoded, text/plain"
    /// ```
    public static var standard: BodyCodecs {
        BodyCodecs([JSONBodyCodec(), FormURLEncodedBodyCodec(), PlainTextBodyCodec()])
    }

    /// Adds a codec in front of the others, so it wins for the media types it shares with
    /// them and comes first in `Accept`.
    ///
    /// ```swift
    /// api.codecs.register(PropertyListCodec())
    /// ```
    ///
    /// - Parameter codec: The codec.
    public mutating func register(_ codec: any BodyCodec) {
        all.insert(codec, at: 0)
    }

    /// The codec for a `Content-Type`, or `nil` when none handles it.
    ///
    /// ```swift
    /// BodyCodecs.standard.codec(for: "application/problem+json; charset=utf-8")  // JSONBodyCodec
    /// ```
    ///
    /// - Parameter contentType: A `Content-Type` header value or a media type.
    /// - Returns: The first codec that names the media type, else the first whose `+suffix`
    ///   entry matches it.
    /// - Complexity: O(*n*), where *n* is the number of media types of all codecs.
    public func codec(for contentType: String) -> (any BodyCodec)? {
        let mediaType = Self.mediaType(of: contentType)
        if let exact = all.first(where: { $0.mediaTypes.contains { $0.lowercased() == mediaType } }) {
            return exact
        }
        let subtype = mediaType.drop { $0 != "/" }
        return all.first { codec in
            codec.mediaTypes.contains { $0.hasPrefix("+") && subtype.hasSuffix($0.lowercased()) }
        }
    }

    /// The `Accept` header that lists the codecs: the first media type of each, in order.
    ///
    /// ```swift
    /// BodyCodecs([JSONBodyCodec()]).acceptHeader  // "application/json"
    /// ```
    public var acceptHeader: String {
        var listed: [String] = []
        for case let mediaType? in all.map(\.mediaTypes.first) where !listed.contains(mediaType) {
            listed.append(mediaType)
        }
        return listed.joined(separator: ", ")
    }

    /// The lowercased `type/subtype` of a `Content-Type`, without parameters.
    static func mediaType(of contentType: String) -> String {
        (contentType.split(separator: ";", omittingEmptySubsequences: false).first ?? "")
            .trimmingCharacters(in: .whitespaces).lowercased()
    }
}
