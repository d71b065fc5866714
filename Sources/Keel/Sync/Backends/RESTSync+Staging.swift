import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// MARK: - Staging the body

extension RESTSync {
    /// Writes the body to a temporary file to upload, or returns `nil`.
    ///
    /// A multipart form always goes to a file, any body when the call tracks upload
    /// progress; the `Content-Type` is set to match. The caller removes the file.
    func stagedBody(of request: SyncRequest, urlRequest: inout URLRequest) throws(SyncError) -> StagedBody? {
        if case .multipart(var form) = request.requestBody {
            if let tunnelled = urlRequest.value(forHTTPHeaderField: "X-HTTP-Method-Override") {
                form.append("_method", tunnelled)
            }
            let staged = try MultipartEncoder.encode(form)
            urlRequest.setValue(staged.contentType, forHTTPHeaderField: "Content-Type")
            return staged
        }
        guard request.onUploadProgress != nil, let body = urlRequest.httpBody else { return nil }
        let staged = try StagedBody.create(
            contentType: urlRequest.value(forHTTPHeaderField: "Content-Type") ?? "application/octet-stream",
            contents: body
        )
        urlRequest.httpBody = nil
        return staged
    }
}
