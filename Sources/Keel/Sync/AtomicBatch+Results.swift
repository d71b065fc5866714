import Foundation

extension AtomicBatch {
    /// What the server's results say about one save operation.
    enum SaveResult {
        /// A resource object for the model.
        case record(JSONValue)
        /// No resource: the server took the record as sent (only for an update).
        case asSent
        /// No result Keel can use, and why.
        case unmapped(String)
    }

    /// Pairs the server's `atomic:results` with the saves of the batch.
    ///
    /// One result per operation, or one per save (drf-json-api-atomic-operations leaves out
    /// those of removals), pair by position. Otherwise a result pairs with the add whose
    /// `lid` it echoes, or with the update of its `type` and `id`; the rest pair by position
    /// among the saves of the same type, where both counts agree.
    func pair(_ results: [JSONValue], options: SyncOptions) -> [Int: SaveResult] {
        let saves = operations.indices.filter { if case .save = operations[$0] { true } else { false } }
        var paired: [Int: JSONValue] = [:]
        if results.count == operations.count {
            for index in saves { paired[index] = results[index] }
        } else if results.count == saves.count {
            for (index, result) in zip(saves, results) { paired[index] = result }
        } else {
            paired = pairByIdentity(results, saves: saves, options: options)
        }
        var outcomes: [Int: SaveResult] = [:]
        for index in saves {
            outcomes[index] = check(paired[index], for: operations[index].model, options: options)
        }
        if results.count != operations.count && results.count != saves.count {
            for index in saves where paired[index] == nil {
                outcomes[index] = .unmapped("\(results.count) results for \(operations.count) operations")
            }
        }
        return outcomes
    }

    /// Pairs results by `lid`, by `type` and `id`, then by position within each type.
    private func pairByIdentity(_ results: [JSONValue], saves: [Int], options: SyncOptions) -> [Int: JSONValue] {
        var paired: [Int: JSONValue] = [:]
        var claimed = Set<Int>()
        for index in saves {
            let model = operations[index].model
            let type = resourceType(of: model, options: options)
            let match = results.indices.first { position in
                guard !claimed.contains(position), let data = results[position]["data"],
                    data["type"]?.stringValue == type
                else { return false }
                if model.isNew { return data["lid"]?.stringValue == model.cid }
                return data["id"]?.stringValue == model.id.flatMap(JSONAPIFormat.wireID)
            }
            if let match {
                paired[index] = results[match]
                claimed.insert(match)
            }
        }
        let unpaired = saves.filter { paired[$0] == nil }
        let types = Set(unpaired.map { resourceType(of: operations[$0].model, options: options) })
        for type in types {
            let indices = unpaired.filter { resourceType(of: operations[$0].model, options: options) == type }
            let left = results.indices.filter { !claimed.contains($0) && results[$0]["data"]?["type"]?.stringValue == type }
            guard indices.count == left.count else { continue }
            for (index, position) in zip(indices, left) { paired[index] = results[position] }
        }
        return paired
    }

    /// Whether a result fits the model it pairs with: an object whose `data` is a resource
    /// of the model's type, with an id (the model's own, for an update).
    private func check(_ result: JSONValue?, for model: Model, options: SyncOptions) -> SaveResult {
        let type = resourceType(of: model, options: options)
        guard let data = result?["data"], data != .null else {
            return model.isNew ? .unmapped("no resource for the new \(type)") : .asSent
        }
        guard data.objectValue != nil else { return .unmapped("the result for a \(type) is not a resource object") }
        guard data["type"]?.stringValue == type else {
            return .unmapped("a result of type \(data["type"]?.stringValue ?? "none") where a \(type) was sent")
        }
        guard let id = data["id"]?.stringValue, !id.isEmpty else { return .unmapped("the \(type) result has no id") }
        if !model.isNew, id != model.id.flatMap(JSONAPIFormat.wireID) {
            return .unmapped("the \(type) result has id \(id), not the one updated")
        }
        return .record(result ?? .null)
    }

    private func resourceType(of model: Model, options: SyncOptions) -> String {
        (model.wireFormat(for: options).jsonAPIFormat ?? JSONAPIFormat()).resourceType(of: Swift.type(of: model))
    }

    /// Applies the results of a batch the server committed: each save that pairs with a
    /// result gets it, an update without a usable one keeps what it sent as its server
    /// state, each removal is destroyed. A new model without a usable result emits `error`
    /// and stays without an id. When any save got no usable result, the call throws
    /// ``SyncError/atomicBatchCommitted(unmapped:reason:)`` listing them.
    func applyCommitted(_ response: SyncResponse, requests: [SyncRequest], options: SyncOptions) throws(SyncError) {
        let outcomes = pair(response.body?["atomic:results"]?.arrayValue ?? [], options: options)
        var failures: [(index: Int, reason: String)] = []
        for (index, operation) in operations.enumerated() {
            let model = operation.model
            switch operation {
            case .save:
                switch outcomes[index] ?? .asSent {
                case .record(let record):
                    do {
                        try apply(record, to: index, response: response, requests: requests, options: options)
                    } catch {
                        failures.append((index, "\(error)"))
                        if !model.isNew { try apply(nil, to: index, response: response, requests: requests, options: options) }
                    }
                case .asSent:
                    try apply(nil, to: index, response: response, requests: requests, options: options)
                case .unmapped(let reason):
                    failures.append((index, reason))
                    if !model.isNew { try apply(nil, to: index, response: response, requests: requests, options: options) }
                }
            case .remove:
                model.emitDestroy(options: options)
                model.syncedStorage = nil
                let answer = SyncResponse(status: response.status, headers: response.headers, url: response.url)
                model.reportSyncSuccess(answer, request: requests[index], model: model, collection: nil, options: options)
            }
        }
        for model in localDestroys { model.emitDestroy(options: options) }
        guard let first = failures.first else { return }
        let error = SyncError.atomicBatchCommitted(
            unmapped: failures.map { operations[$0.index].model.cid },
            reason: first.reason
        )
        for failure in failures where operations[failure.index].model.isNew {
            let model = operations[failure.index].model
            model.reportSyncFailure(error, request: requests[failure.index], model: model, collection: nil, options: options)
        }
        throw error
    }

    /// Applies one save's record (`nil`: the record as sent) to its model.
    private func apply(
        _ record: JSONValue?,
        to index: Int,
        response: SyncResponse,
        requests: [SyncRequest],
        options: SyncOptions
    ) throws(SyncError) {
        let model = operations[index].model
        try model.applyResponse(
            SyncResponse(status: response.status, headers: response.headers, body: record, url: response.url),
            request: requests[index],
            waitedAttributes: nil,
            format: model.wireFormat(for: options),
            options: options
        )
    }
}
