import Foundation

extension AtomicBatch {
    /// The backends the batch's models resolve to, each once, in the order of the models.
    ///
    /// - Throws: ``SyncError/missingBackend`` for a model without one.
    func backends() throws(SyncError) -> [(backend: any Sync, model: Model)] {
        var seen = Set<BackendIdentity>()
        var backends: [(backend: any Sync, model: Model)] = []
        for operation in operations {
            let backend = try operation.model.requireBackend()
            if seen.insert(BackendIdentity(backend)).inserted { backends.append((backend, operation.model)) }
        }
        return backends
    }

    /// Throws unless every request goes to the server of the atomic endpoint: one request
    /// cannot carry an operation to another one.
    func requireOneOrigin(_ requests: [SyncRequest], endpoint: URL, backend: any Sync) throws(SyncError) {
        let base = (backend as? RESTSync)?.baseURL
        let origin = BackendIdentity.origin(of: endpoint, base: base)
        for (operation, request) in zip(operations, requests)
        where BackendIdentity.origin(of: request.url, base: base) != origin {
            throw .atomicBatchSpansBackends(
                model: String(describing: Swift.type(of: operation.model)),
                reason: "its URL \(request.url.absoluteString) is on another server than the endpoint \(endpoint.absoluteString)"
            )
        }
    }
}
