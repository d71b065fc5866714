/// A request body in one of the encodings HTML forms and APIs use: JSON, a URL-encoded form,
/// a multipart form with files, or the format of a ``BodyCodec``.
///
/// Models send JSON by default. Set ``SyncOptions/requestBody`` to send something else from
/// any call, or use ``Model/save(_:files:wait:patch:options:)``, which sends the model's
/// attributes and files as a multipart form in its wire format's notation.
///
/// ```swift
/// var options = SyncOptions()
/// options.requestBody = .formURLEncoded([("q", "dune & more"), ("page", "2")])
/// try await searches.fetch(options: options)  // q=dune+%26+more&page=2
/// ```
///
/// ``RESTSync`` sends it with its `Content-Type`; backends that store records rather than
/// sending HTTP (``InMemorySync``, a local store) keep using ``SyncRequest/body``.
public enum RequestBody: Sendable, Hashable {
    /// JSON, `application/json`.
    case json(JSONValue)
    /// Name–value pairs, `application/x-www-form-urlencoded`, percent-encoded as the WHATWG
    /// URL standard encodes forms: ASCII letters, digits and `*-._` as they are, a space as
    /// `+`, every other byte of the UTF-8 text as `%XX`.
    case formURLEncoded([(name: String, value: String)])
    /// Text fields and files, `multipart/form-data`; files are streamed from disk.
    case multipart(MultipartForm)
    /// A value written by the ``BodyCodec`` that ``RESTSync/codecs`` has for `mediaType`, and
    /// sent with that `Content-Type`; a `mediaType` that is not a media type throws
    /// ``SyncError/invalidMIMEType(_:reason:)`` and nothing is sent.
    ///
    /// ```swift
    /// options.requestBody = .encoded(["title": "Milk"], mediaType: "application/x-plist")
    /// ```
    case encoded(JSONValue, mediaType: String)

    /// The URL-encoded text of name–value pairs, as in ``formURLEncoded(_:)``.
    ///
    /// ```swift
    /// RequestBody.urlEncoded([("a b", "ü&=")])  // "a+b=%C3%BC%26%3D"
    /// ```
    ///
    /// - Parameter fields: The pairs, in order.
    /// - Returns: The encoded text.
    /// - Complexity: O(*n*), where *n* is the length of the names and values.
    public static func urlEncoded(_ fields: [(name: String, value: String)]) -> String {
        fields.map { formEncode($0.name) + "=" + formEncode($0.value) }.joined(separator: "&")
    }

    /// Whether the body is a multipart form with at least one file.
    var hasFiles: Bool {
        guard case .multipart(let form) = self else { return false }
        return form.parts.contains { if case .file = $0 { true } else { false } }
    }

    private static func formEncode(_ text: String) -> String {
        var encoded = ""
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                encoded.append("+")
            default:
                encoded.append("%")
                encoded.append(hexDigits[Int(byte >> 4)])
                encoded.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return encoded
    }

    private static let hexDigits: [Character] = Array("0123456789ABCDEF")
}

extension RequestBody {
    /// Whether two bodies are the same.
    ///
    /// ```swift
    /// RequestBody.formURLEncoded([("a", "1")]) == .formURLEncoded([("a", "1")])  // true
    /// ```
    public static func == (lhs: RequestBody, rhs: RequestBody) -> Bool {
        switch (lhs, rhs) {
        case (.json(let a), .json(let b)): return a == b
        case (.formURLEncoded(let a), .formURLEncoded(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.name == $1.name && $0.value == $1.value }
        case (.multipart(let a), .multipart(let b)): return a == b
        case (.encoded(let a, let aType), .encoded(let b, let bType)): return a == b && aType == bType
        default: return false
        }
    }

    /// Hashes the body's encoding and contents.
    ///
    /// ```swift
    /// var seen: Set<RequestBody> = [.json(["a": 1])]
    /// ```
    ///
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .json(let value):
            hasher.combine(0)
            hasher.combine(value)
        case .formURLEncoded(let fields):
            hasher.combine(1)
            for field in fields {
                hasher.combine(field.name)
                hasher.combine(field.value)
            }
        case .multipart(let form):
            hasher.combine(2)
            hasher.combine(form)
        case .encoded(let value, let mediaType):
            hasher.combine(3)
            hasher.combine(value)
            hasher.combine(mediaType)
        }
    }
}
