import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// MARK: - The exchange

extension RESTSync {
    /// Sends the request and returns the server's answer, every failure of the transport
    /// mapped to a ``SyncError``.
    func answer(
        to urlRequest: URLRequest,
        staged: StagedBody?,
        for request: SyncRequest
    ) async throws(SyncError) -> (Data, URLResponse) {
        do {
            return try await exchange(urlRequest, staged: staged, for: request)
        } catch let error as URLError where error.code == ResponseSizeLimit.exceeded.code {
            throw .responseTooLarge(limit: request.maximumResponseBytes ?? maximumResponseBytes)
        } catch {
            throw Self.syncError(for: error)
        }
    }

    /// Sends the request (its staged body from disk, if any) and returns the answer; follows a
    /// 307 or 308 redirect that the default session leaves to it, with the body.
    private func exchange(
        _ urlRequest: URLRequest,
        staged: StagedBody?,
        for request: SyncRequest
    ) async throws -> (Data, URLResponse) {
        let transport = self.transport
        // The default transport keeps the request's `timeoutInterval` as a limit on the whole
        // exchange, from the threads its answers arrive on. Other transports may ignore it, so
        // their limit is kept here too: TimeLimit returns at the limit even if the transport is
        // slow to acknowledge its cancellation.
        let limit: Duration? = transport is OwnedURLSession ? nil : request.timeout ?? timeout
        let maximumBytes = request.maximumResponseBytes ?? maximumResponseBytes
        var hop = urlRequest
        for _ in 0...20 {
            let sent = hop
            let answer: (Data, URLResponse)
            if let staged {
                let progress = request.onUploadProgress ?? { _ in }
                answer = try await TimeLimit.run(within: limit) {
                    try await transport.upload(
                        sent,
                        fromFile: staged.file,
                        maximumResponseBytes: maximumBytes,
                        progress: progress
                    )
                }
            } else {
                answer = try await TimeLimit.run(within: limit) {
                    try await transport.send(sent, maximumResponseBytes: maximumBytes)
                }
            }
            guard sent.httpBody != nil || staged != nil,
                let next = CrossOriginRedirectGuard.bodyKeepingRedirect(of: sent, answeredWith: answer.1)
            else { return answer }
            hop = next
        }
        throw URLError(.httpTooManyRedirects)
    }

    /// Maps a transport failure to the matching ``SyncError``.
    static func syncError(for error: any Error) -> SyncError {
        if error is CancellationError { return .cancelled }
        if let urlError = error as? URLError {
            switch urlError.code {
            case .cancelled: return .cancelled
            case .timedOut: return .timedOut
            default: return .transport(urlError.localizedDescription + " (URLError \(urlError.code.rawValue))")
            }
        }
        return .transport(String(describing: error))
    }
}
