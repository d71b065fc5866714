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
        let body = try decodedBody(data, status: status, contentType: responseHeaders["content-type"])
        return SyncResponse(status: status, headers: responseHeaders, body: body, url: http.url ?? urlRequest.url)
    }

    /// The body of an answer: `nil` when it is empty or blank, else what the codec for its
    /// `Content-Type` reads (JSON without one). A success that no codec reads, or that its
    /// codec cannot read, is undecodable; a failure's body is then kept as its text.
    private func decodedBody(_ data: Data, status: Int, contentType: String?) throws(SyncError) -> JSONValue? {
        guard !data.isEmpty && !data.allSatisfy(Self.isWhitespace) else { return nil }
        let isSuccess = (200..<300).contains(status)
        guard let codec = codecs.codec(for: contentType ?? "application/json") else {
            // A success in another type is not the API's answer: a captive portal's sign-in
            // page (`200 text/html`), or a proxy's. It is not taken as the record.
            if isSuccess {
                throw .undecodableBody(
                    status: status,
                    reason: "its Content-Type is \(contentType ?? "none"), which no registered codec reads ("
                        + codecs.acceptHeader + ")",
                    text: String(decoding: data, as: UTF8.self)
                )
            }
            // An error page or a framework's error in a type of its own: JSON if it is JSON.
            return (try? JSONValue(parsing: data)) ?? .string(String(decoding: data, as: UTF8.self))
        }
        do {
            return try codec.decode(data, contentType: contentType ?? "application/json")
        } catch {
            let text = String(decoding: data, as: UTF8.self)
            guard !isSuccess else {
                throw .undecodableBody(
                    status: status,
                    reason: "\(error.reason) (Content-Type \(contentType ?? "none"))",
                    text: text
                )
            }
            return .string(text)
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
