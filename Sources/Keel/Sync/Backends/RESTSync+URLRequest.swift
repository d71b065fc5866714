#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

// MARK: - Building the URL request

extension RESTSync {
    /// The HTTP request that ``perform(_:)`` sends for a sync request.
    ///
    /// ```swift
    /// let http = try api.urlRequest(for: request)
    /// http.httpMethod  // "PUT"
    /// ```
    ///
    /// - Parameter request: The operation.
    /// - Returns: The URL request, with method, headers, body and timeout; ``headers`` only
    ///   when the URL has the origin of ``baseURL``. A multipart ``SyncRequest/requestBody``
    ///   is not in it: ``perform(_:)`` writes it to a temporary file, sets its
    ///   `Content-Type` with the boundary, and uploads the file.
    /// - Throws: ``SyncError/missingURL(_:)`` when the URL cannot be resolved;
    ///   ``SyncError/unsafePathSegment(_:)`` when its path has a `.` or `..` segment;
    ///   ``SyncError/invalidHeader(name:reason:)`` when a name in ``headers`` or the request's
    ///   headers is not an RFC 9110 token, or a value has a control character other than a tab;
    ///   ``SyncError/unencodableBody(_:)`` when the body cannot be written as JSON;
    ///   ``SyncError/invalidMIMEType(_:reason:)`` when an encoded body's media type is not a
    ///   media type; ``SyncError/unwritableBody(mediaType:reason:)`` when no codec of
    ///   ``codecs`` writes it, or the codec fails.
    public func urlRequest(for request: SyncRequest) throws(SyncError) -> URLRequest {
        try HTTPHeaderSyntax.validate(headers)
        try HTTPHeaderSyntax.validate(request.headers)
        let url = try resolvedURL(for: request)
        let emulateHTTP = request.emulateHTTP ?? self.emulateHTTP
        let emulateJSON = request.emulateJSON ?? self.emulateJSON
        let method = request.method.httpMethod
        let tunnels = emulateHTTP && [.update, .patch, .delete].contains(request.method)

        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = tunnels ? "POST" : method
        urlRequest.timeoutInterval = Self.seconds(request.timeout ?? timeout)
        let accept = codecs.acceptHeader
        if !accept.isEmpty { urlRequest.setValue(accept, forHTTPHeaderField: "Accept") }
        if tunnels { urlRequest.setValue(method, forHTTPHeaderField: "X-HTTP-Method-Override") }

        let sendsBody = [.create, .update, .patch].contains(request.method)
        if let requestBody = request.requestBody {
            try setBody(requestBody, of: &urlRequest, tunnelling: tunnels ? method : nil)
        } else if emulateJSON {
            var fields: [(String, String)] = []
            if sendsBody { fields.append(("model", String(decoding: try Self.jsonData(request.body), as: UTF8.self))) }
            if tunnels { fields.append(("_method", method)) }
            if !fields.isEmpty || sendsBody {
                urlRequest.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
                let encoded = fields.map { "\(Self.formEncode($0.0))=\(Self.formEncode($0.1))" }.joined(separator: "&")
                urlRequest.httpBody = Data(encoded.utf8)
            }
        } else if sendsBody {
            urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
            urlRequest.httpBody = try Self.jsonData(request.body)
        }
        if HTTPOrigin.same(url, baseURL) {
            for (name, value) in headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        }
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        return urlRequest
    }

    // MARK: - Helpers

    /// The absolute URL of a request: its own, or resolved against ``baseURL``, with its query
    /// parameters appended.
    ///
    /// Its path must address what it names: `URLSession` would remove `.` and `..` segments, and
    /// servers decode `%2E` to `.`, so either would send the request somewhere else.
    private func resolvedURL(for request: SyncRequest) throws(SyncError) -> URL {
        var url = request.url
        if url.scheme == nil {
            guard let baseURL else {
                throw .missingURL("\(url.relativeString) is relative and RESTSync has no baseURL")
            }
            url = try URLPath.resolve(url.relativeString, against: baseURL)
        }
        if !request.query.isEmpty {
            url = try Self.appending(request.query, to: url)
        }
        let segments = url.path(percentEncoded: true).split(separator: "/")
        if let unsafe = segments.first(where: URLPath.isDotSegment) { throw .unsafePathSegment(String(unsafe)) }
        return url
    }

    /// Sets a ``RequestBody`` other than a multipart form (which ``stagedBody(of:urlRequest:)``
    /// writes to a file) and its `Content-Type`; a tunnelled method also goes in a `_method`
    /// field of a form, as Rails' `Rack::MethodOverride` reads it.
    private func setBody(
        _ body: RequestBody,
        of urlRequest: inout URLRequest,
        tunnelling method: String?
    ) throws(SyncError) {
        switch body {
        case .json(let value):
            urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
            urlRequest.httpBody = try Self.jsonData(value)
        case .encoded(let value, let mediaType):
            urlRequest.setValue(mediaType, forHTTPHeaderField: "Content-Type")
            urlRequest.httpBody = try encoded(value, as: mediaType)
        case .formURLEncoded(let fields):
            urlRequest.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            let all = fields + (method.map { [("_method", $0)] } ?? [])
            urlRequest.httpBody = Data(RequestBody.urlEncoded(all).utf8)
        case .multipart:
            urlRequest.setValue("multipart/form-data", forHTTPHeaderField: "Content-Type")
        }
    }

    /// A value written by the codec for `mediaType`, which goes into the `Content-Type` header
    /// as it is and so must be a media type (a line break would add headers).
    private func encoded(_ value: JSONValue, as mediaType: String) throws(SyncError) -> Data {
        try MIMEType.validate(mediaType)
        guard let codec = codecs.codec(for: mediaType) else {
            throw .unwritableBody(mediaType: mediaType, reason: "no registered codec writes it")
        }
        do {
            return try codec.encode(value)
        } catch {
            throw .unwritableBody(mediaType: mediaType, reason: error.reason)
        }
    }

    /// The request body (`null` when there is none) as JSON text.
    private static func jsonData(_ body: JSONValue?) throws(SyncError) -> Data {
        do {
            return try (body ?? .null).jsonData()
        } catch {
            throw .unencodableBody(error)
        }
    }

    /// Characters left alone in query and form values: RFC 3986's unreserved set.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    )

    private static func formEncode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static func appending(_ items: [URLQueryItem], to url: URL) throws(SyncError) -> URL {
        let encoded = items.map { "\(formEncode($0.name))=\(formEncode($0.value ?? ""))" }.joined(separator: "&")
        var text = url.absoluteString
        let fragment = text.firstIndex(of: "#").map { String(text[$0...]) } ?? ""
        if !fragment.isEmpty { text.removeLast(fragment.count) }
        text += (text.contains("?") ? "&" : "?") + encoded + fragment
        guard let result = URL(string: text) else { throw .missingURL("\(text) is not a valid URL") }
        return result
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
