/// How a wire format sends the bodies of a model's requests (saves, ``SyncOptions/body``,
/// ``Model/perform(route:options:)``): JSON, a URL-encoded form, or the media type of a
/// ``BodyCodec`` (RestKit's `requestSerializationMIMEType`).
///
/// ```swift
/// var format = WireFormat.rails
/// format.bodyEncoding = .formURLEncoded  // note[title]=Milk&note[done]=false
/// ```
///
/// It decides what ``RESTSync`` sends; ``SyncRequest/body`` keeps the JSON value for
/// backends that store records, decorators and tests. A call's ``SyncOptions/requestBody``,
/// and the multipart form of a save with files, win over it.
public enum BodyEncoding: Sendable, Hashable {
    /// JSON, `application/json`: the default.
    case json
    /// A URL-encoded form, `application/x-www-form-urlencoded`, its fields named in the
    /// format's ``WireFormat/formNotation`` (`note[title]` for ``WireFormat/rails``).
    case formURLEncoded
    /// The format of the codec that ``RESTSync/codecs`` has for a media type, which is sent as
    /// the `Content-Type`; with no such codec, the request throws
    /// ``SyncError/unwritableBody(mediaType:reason:)`` and nothing is sent.
    ///
    /// ```swift
    /// format.bodyEncoding = .mediaType("application/x-plist")
    /// ```
    case mediaType(String)
}

extension WireFormat {
    /// The body that ``bodyEncoding`` sends instead of the JSON one, or `nil` to send JSON.
    func encodedBody(_ body: JSONValue?) -> RequestBody? {
        guard let body else { return nil }
        switch bodyEncoding {
        case .json: return nil
        case .formURLEncoded: return .formURLEncoded(formNotation.fields(for: body))
        case .mediaType(let mediaType): return .encoded(body, mediaType: mediaType)
        }
    }
}
