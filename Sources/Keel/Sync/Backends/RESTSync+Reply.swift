import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// MARK: - Decoding the reply

extension RESTSync {
    /// The response to `urlRequest`: its status, headers (names lowercased) and decoded body.
    ///
    /// A `Set-Cookie` that deletes cookies is applied to the transport's cookie storage.
    func reply(_ data: Data, _ urlResponse: URLResponse, to urlRequest: URLRequest) throws(SyncError) -> SyncResponse {
        guard let http = urlResponse as? HTTPURLResponse else {
            throw .transport("the response to \(urlRequest.url?.absoluteString ?? "") is not HTTP")
        }
        var responseHeaders: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            responseHeaders[String(describing: name).lowercased()] = String(describing: value)
        }
        if let setCookie = responseHeaders["set-cookie"], let host = urlRequest.url?.host,
            let storage = (transport as? any CookieStoringTransport)?.cookieStorage
        {
            storage.deleteCookies(deletedBy: setCookie, host: host)
        }
        let status = http.statusCode
        let body = try Self.decodedBody(data, status: status, contentType: responseHeaders["content-type"])
        return SyncResponse(status: status, headers: responseHeaders, body: body, url: http.url ?? urlRequest.url)
    }

    /// The body of an answer: `nil` when it is empty or blank, the text of a `text/plain`
    /// one, else JSON; a failure's body that is not JSON is kept as its text.
    private static func decodedBody(_ data: Data, status: Int, contentType: String?) throws(SyncError) -> JSONValue? {
        guard !data.isEmpty && !data.allSatisfy(isWhitespace) else { return nil }
        if isPlainText(contentType) {
            // A plain-text answer, such as Drupal's CSRF token: the text itself.
            return .string(String(decoding: data, as: UTF8.self))
        }
        if (200..<300).contains(status), let contentType, !JSONMediaType.matches(contentType) {
            // A success that is not JSON is not the API's answer: a captive portal's
            // sign-in page (`200 text/html`), or a proxy's. It is not taken as the record.
            throw .undecodableBody(
                status: status,
                reason: "its Content-Type is \(contentType), not JSON",
                text: String(decoding: data, as: UTF8.self)
            )
        }
        do {
            return try JSONValue(parsing: data)
        } catch {
            let text = String(decoding: data, as: UTF8.self)
            guard !(200..<300).contains(status) else {
                throw .undecodableBody(
                    status: status,
                    reason: "\(error.description) (Content-Type \(contentType ?? "none"))",
                    text: text
                )
            }
            return .string(text)
        }
    }

    /// Whether a `Content-Type` is `text/plain`.
    private static func isPlainText(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";").first ?? ""
        return mediaType.trimmingCharacters(in: .whitespaces).lowercased() == "text/plain"
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
