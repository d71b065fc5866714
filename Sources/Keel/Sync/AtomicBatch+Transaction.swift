extension AtomicBatch {
    /// Sends the batch through a backend's transaction and applies the responses; a failed
    /// transaction stored nothing, and every model reports the error.
    func send(through backend: any TransactionalSync, options: SyncOptions) async throws(SyncError) -> [SyncResponse] {
        var requests: [SyncRequest] = []
        var links: [RequestLink] = []
        var created: [ObjectIdentifier: Int] = [:]
        for (index, operation) in operations.enumerated() {
            let model = operation.model
            let format = model.wireFormat(for: options)
            switch operation {
            case .save:
                let request = try model.makeSaveRequest(nil, format: format, options: options)
                links += Self.parentLinks(of: model, in: request, at: index, created: created, format: format)
                if model.isNew { created[ObjectIdentifier(model)] = index }
                requests.append(request)
            case .remove:
                let url = try model.requestURL(for: .delete, options: options)
                requests.append(try model.makeRequest(.delete, url: url, body: nil, format: format, options: options))
            }
        }
        announce(requests, options: options)
        let responses: [SyncResponse]
        do {
            responses = try await backend.performInTransaction(requests, links: links)
        } catch {
            throw report(Task.isCancelled ? .cancelled : error, requests: requests, options: options)
        }
        guard responses.count == requests.count else {
            throw report(
                .invalidResponse("\(responses.count) responses for \(requests.count) requests"),
                requests: requests,
                options: options
            )
        }
        try apply(requests: requests, options: options) { responses[$0] }
        return responses
    }

    /// The links that give a model's belongs-to foreign keys the ids of new parents created
    /// earlier in the transaction, at the key's place in the request body (at the top, or
    /// under the format's root key).
    private static func parentLinks(
        of model: Model,
        in request: SyncRequest,
        at index: Int,
        created: [ObjectIdentifier: Int],
        format: WireFormat
    ) -> [RequestLink] {
        var links: [RequestLink] = []
        for case let relation as any RelationImplementation in Swift.type(of: model).relations {
            guard case .toOne(let foreignKey?) = relation.linkage,
                let parent = model.relationLinks?[relation.key]?.relatedModels.first?.model,
                let source = created[ObjectIdentifier(parent)]
            else { continue }
            let key = format.keys.wireName(for: foreignKey)
            let body = request.body?.objectValue ?? [:]
            let root = body.count == 1 && body[key] == nil ? body.first { $0.value.objectValue != nil }?.key : nil
            links.append(RequestLink(request: index, keyPath: root.map { [$0, key] } ?? [key], source: source))
        }
        return links
    }
}
