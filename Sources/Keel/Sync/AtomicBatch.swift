import Foundation

/// The models of one ``AtomicOperations/save(_:destroying:options:)`` call, in the order they
/// are sent: each new parent before the models that link to it, then the deletes.
struct AtomicBatch {
    enum Operation {
        case save(Model)
        case remove(Model)

        var model: Model {
            switch self {
            case .save(let model), .remove(let model): model
            }
        }
    }

    private(set) var operations: [Operation] = []
    /// New models to destroy: they never reached the server, so they are destroyed locally.
    private(set) var localDestroys: [Model] = []

    init(saving models: [Model], destroying: [Model]) {
        let saved = Set(models.map(ObjectIdentifier.init))
        var visited = Set<ObjectIdentifier>()
        func visit(_ model: Model) {
            guard visited.insert(ObjectIdentifier(model)).inserted else { return }
            for parent in Self.linkedParents(of: model) where parent.isNew && saved.contains(ObjectIdentifier(parent)) {
                visit(parent)
            }
            operations.append(.save(model))
        }
        models.forEach(visit)
        for model in destroying where visited.insert(ObjectIdentifier(model)).inserted {
            if model.isNew { localDestroys.append(model) } else { operations.append(.remove(model)) }
        }
    }

    /// Whether every model's format is JSON:API, so the batch can go as one request.
    func speaksJSONAPI(options: SyncOptions) -> Bool {
        operations.allSatisfy { $0.model.wireFormat(for: options).jsonAPIFormat != nil }
    }

    /// Validates every model to save; the first invalid one emits `invalid` and stops the call.
    func validate(options: SyncOptions) throws(SyncError) {
        guard options.validate != false else { return }
        for case .save(let model) in operations {
            if let error = model.validationFailure(for: model.storage, options: options.change) {
                model.reportInvalid(error, options: options.change)
                throw .validationFailed(error, status: nil)
            }
        }
    }

    // MARK: - One request

    /// Sends the batch as one atomic request and applies the results; `nil` when the server
    /// does not offer the extension there (404, 405, 406, 415), before anything changed.
    ///
    /// Once the server answered with success it has committed every operation, so results
    /// that cannot all be mapped still apply what they can.
    func send(to endpoint: URL, options: SyncOptions) async throws(SyncError) -> SyncResponse? {
        guard let first = operations.first?.model else { return nil }
        let backend = try first.requireBackend()
        var entries: [JSONValue] = []
        var requests: [SyncRequest] = []
        for (index, operation) in operations.enumerated() {
            let (entry, request) = try self.entry(for: operation, before: index, options: options)
            entries.append(entry)
            requests.append(request)
        }
        var request = try first.makeRequest(
            .create,
            url: endpoint,
            body: ["atomic:operations": .array(entries)],
            format: first.wireFormat(for: options),
            options: options
        )
        request.query = []
        request.headers["Accept"] = AtomicOperations.mediaType
        request.headers["Content-Type"] = AtomicOperations.mediaType
        try requireOneOrigin(requests, endpoint: endpoint, backend: backend)
        announce(requests, options: options)
        let response: SyncResponse
        do {
            response = try await backend.perform(request)
        } catch {
            if case .httpStatus(let status, _) = error, [404, 405, 406, 415].contains(status) { return nil }
            throw report(Task.isCancelled ? .cancelled : error, requests: requests, options: options)
        }
        try applyCommitted(response, requests: requests, options: options)
        return response
    }

    /// Emits `request` on each model with the request it would send on its own.
    func announce(_ requests: [SyncRequest], options: SyncOptions) {
        for (operation, single) in zip(operations, requests) {
            operation.model.dispatch(
                Event(name: "request", model: operation.model, request: single, options: options.change)
            )
        }
    }

    /// One operation object, `{"op", "data"}` or `{"op", "ref"}`, and the request the model
    /// would send on its own (for its events).
    private func entry(
        for operation: Operation,
        before index: Int,
        options: SyncOptions
    ) throws(SyncError) -> (JSONValue, SyncRequest) {
        let model = operation.model
        let format = model.wireFormat(for: options)
        let jsonAPI = format.jsonAPIFormat ?? JSONAPIFormat()
        let type = jsonAPI.resourceType(of: Swift.type(of: model))
        switch operation {
        case .save:
            let request = try model.makeSaveRequest(nil, format: format, options: options)
            guard var resource = request.body?["data"]?.objectValue else {
                throw .unmappableResponse(keyPath: "data", reason: "\(type) has no JSON:API resource object to send")
            }
            if model.isNew { resource["lid"] = .string(model.cid) }
            let earlier = Set(operations[..<index].map { ObjectIdentifier($0.model) })
            if let linkage = localLinkage(of: model, to: earlier, format: format, jsonAPI: jsonAPI) {
                var relationships = resource["relationships"]?.objectValue ?? [:]
                for (key, value) in linkage { relationships[key] = value }
                resource["relationships"] = .object(relationships)
            }
            return (["op": model.isNew ? "add" : "update", "data": .object(resource)], request)
        case .remove:
            let request = try model.makeRequest(
                .delete,
                url: try model.requestURL(for: .delete, options: options),
                body: nil,
                format: format,
                options: options
            )
            let id = model.id.flatMap(JSONAPIFormat.wireID).map(JSONValue.string) ?? .null
            return (["op": "remove", "ref": ["type": .string(type), "id": id]], request)
        }
    }

    /// The relationships of `model` that link to new models sent earlier in the batch, by
    /// their `lid`; members with ids keep theirs.
    private func localLinkage(
        of model: Model,
        to earlier: Set<ObjectIdentifier>,
        format: WireFormat,
        jsonAPI: JSONAPIFormat
    ) -> JSONObject? {
        var linkage = JSONObject()
        for case let relation as any RelationImplementation in Swift.type(of: model).relations {
            guard let linked = model.relationLinks?[relation.key]?.relatedModels.map(\.model),
                linked.contains(where: { $0.isNew && earlier.contains(ObjectIdentifier($0)) })
            else { continue }
            let type = jsonAPI.linkageType(of: relation.targetType)
            let identifiers: [JSONValue] = linked.compactMap { member in
                if member.isNew {
                    guard earlier.contains(ObjectIdentifier(member)) else { return nil }
                    return ["type": .string(type), "lid": .string(member.cid)]
                }
                return member.id.flatMap { JSONAPIWriter.identifier($0, type: type) }
            }
            let data: JSONValue = relation.linkage == .toMany ? .array(identifiers) : identifiers.first ?? .null
            linkage[format.keys.wireName(for: relation.key)] = ["data": data]
        }
        return linkage.isEmpty ? nil : linkage
    }

    /// Applies each operation's response: a saved model gets its record, a removed one is
    /// destroyed; then the new models among the removals are destroyed locally.
    func apply(
        requests: [SyncRequest],
        options: SyncOptions,
        response: (Int) -> SyncResponse
    ) throws(SyncError) {
        for (index, operation) in operations.enumerated() {
            let model = operation.model
            switch operation {
            case .save:
                try model.applyResponse(
                    response(index),
                    request: requests[index],
                    waitedAttributes: nil,
                    format: model.wireFormat(for: options),
                    options: options
                )
            case .remove:
                model.emitDestroy(options: options)
                model.syncedStorage = nil
                model.reportSyncSuccess(response(index), request: requests[index], model: model, collection: nil, options: options)
            }
        }
        for model in localDestroys { model.emitDestroy(options: options) }
    }

    /// Reports a refused batch on every model and returns the error to throw: the first
    /// error of a model an error object points to, else the server's.
    func report(_ error: SyncError, requests: [SyncRequest], options: SyncOptions) -> SyncError {
        let named = errorsByOperation(error, options: options)
        let general = operations.first.map { $0.model.wireFormat(for: options).appFailure(error) } ?? error
        for (index, operation) in operations.enumerated() {
            operation.model.reportSyncFailure(
                named[index] ?? error,
                request: requests[index],
                model: operation.model,
                collection: nil,
                options: options
            )
        }
        return operations.indices.lazy.compactMap { named[$0] }.first ?? general
    }

    /// The errors of a refused batch whose pointers name an operation
    /// (`/atomic:operations/1/data/attributes/title`), each in its model's attribute names.
    private func errorsByOperation(_ error: SyncError, options: SyncOptions) -> [Int: SyncError] {
        guard case .httpStatus(let status, let body) = error, let list = body?["errors"]?.arrayValue else { return [:] }
        var grouped: [Int: [JSONValue]] = [:]
        for item in list {
            guard var object = item.objectValue,
                let pointer = object["source"]?["pointer"]?.stringValue,
                pointer.hasPrefix("/atomic:operations/")
            else { continue }
            let tokens = pointer.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
            guard tokens.count >= 3, let index = Int(tokens[2].prefix { $0.isNumber }), operations.indices.contains(index)
            else { continue }
            let rest = tokens[2].drop { $0.isNumber }
            object["source"] = ["pointer": .string(String(rest))]
            grouped[index, default: []].append(.object(object))
        }
        return grouped.mapValues { errors in
            .httpStatus(status, body: ["errors": .array(errors)])
        }.reduce(into: [:]) { result, entry in
            result[entry.key] = operations[entry.key].model.wireFormat(for: options).appFailure(entry.value)
        }
    }

    // MARK: - One by one

    /// Saves and destroys the models one request each, in order; each child's foreign keys
    /// are set from parents saved before it.
    func sendOneByOne(options: SyncOptions) async throws(SyncError) {
        for operation in operations {
            switch operation {
            case .save(let model):
                Self.takeParentIDs(into: model)
                try await model.save(options: options)
            case .remove(let model):
                try await model.destroy(wait: true, options: options)
            }
        }
        for model in localDestroys { try await model.destroy(options: options) }
    }

    // MARK: - Relations

    /// The models a model links to through its belongs-to and has-one relations.
    static func linkedParents(of model: Model) -> [Model] {
        Swift.type(of: model).relations.compactMap { relation in
            guard let relation = relation as? any RelationImplementation, case .toOne = relation.linkage else {
                return nil
            }
            return model.relationLinks?[relation.key]?.relatedModels.first?.model
        }
    }

    /// Sets a model's belongs-to foreign keys from parents that got their ids since they
    /// were linked.
    private static func takeParentIDs(into model: Model) {
        var keys = Attributes()
        for case let relation as any RelationImplementation in Swift.type(of: model).relations {
            guard case .toOne(let foreignKey?) = relation.linkage,
                let parentID = model.relationLinks?[relation.key]?.relatedModels.first?.model.id,
                model.storage[foreignKey] != parentID
            else { continue }
            keys[foreignKey] = parentID
        }
        if !keys.isEmpty { model.set(keys, options: ChangeOptions(validate: false)) }
    }
}
