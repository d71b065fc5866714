/// The records of a server list as the server sent them, beside their ids in app form: what
/// the models read from them keep as their ``Model/remoteAttributes`` (NSRails'
/// `objectsWithRemoteDictionaries:`), for classes that keep them
/// (``Model/keepsRemoteAttributes``).
struct SentRecords {
    private let records: [JSONValue]
    private let ids: [JSONValue?]

    /// The records of `body` as sent, when the wire format finds one for each record it read
    /// into `appRecords`.
    init?(_ body: JSONValue, read appRecords: JSONValue, format: WireFormat, modelType: Model.Type) {
        guard modelType.keepsRemoteAttributes,
            let records = format.sentRecords(in: body, for: modelType), let read = appRecords.arrayValue,
            read.count == records.count
        else { return nil }
        self.records = records
        let idAttribute = modelType.idAttribute
        ids = read.map { $0[idAttribute] }
    }

    /// Gives each model the record it was read from: by position while the ids agree (the
    /// collection's `parse` kept the records in order, as it does unless overridden), else
    /// by id; a model matched to no record keeps what it had.
    ///
    /// - Returns: The models.
    @discardableResult
    func give<M: Model>(to models: [M]) -> [M] {
        let inOrder =
            models.count == records.count
            && models.indices.allSatisfy { index in
                guard let id = ids[index], !id.isNull else { return true }
                return models[index].storedID == id
            }
        if inOrder {
            for index in models.indices { models[index].extras.remoteAttributes = records[index] }
            return models
        }
        var byID: [JSONValue: JSONValue] = [:]
        for (id, record) in zip(ids, records) {
            if let id, !id.isNull { byID[id] = record }
        }
        for model in models {
            if let id = model.storedID, let record = byID[id] { model.extras.remoteAttributes = record }
        }
        return models
    }
}

/// A collection's inputs read from server records, and those records as sent.
struct ReadInputs {
    let inputs: CollectionInputs
    let sent: SentRecords?
}

extension Optional where Wrapped == SentRecords {
    /// ``SentRecords/give(to:)`` when there are records.
    @discardableResult
    func give<M: Model>(to models: [M]) -> [M] {
        self?.give(to: models) ?? models
    }
}
