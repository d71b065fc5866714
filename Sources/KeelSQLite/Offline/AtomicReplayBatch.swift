import Keel

/// The queued JSON:API changes one replay sends as one Atomic Operations request, with the
/// operation object of each.
///
/// A change joins when it is pending, every earlier change of its record joined too, its
/// record's collection checks no versions (a conflict check reads the server first, one
/// change at a time), and every temporary id it names belongs to a create of the batch: a
/// create goes as an `add` whose `lid` is its temporary id, and later operations name that
/// record by `{"type", "lid"}`, in their own `id`, in a `remove`'s `ref` and in relationship
/// linkage. A temporary id anywhere else (an attribute) keeps the change out.
struct AtomicReplayBatch {
    /// The queue positions of the changes in the batch, in queue order.
    private(set) var positions: [Int] = []
    /// The operation object of each change, in the same order.
    private(set) var operations: [JSONValue] = []
    /// The resource type of each operation.
    private(set) var types: [String] = []
    /// The temporary ids of the batch's creates.
    private var created: Set<String> = []

    /// Picks the batch from the queue.
    ///
    /// - Parameters:
    ///   - changes: The queue, oldest first.
    ///   - types: The resource type of each record, for the removes (whose request has no body).
    ///   - checksVersions: Whether a change is checked for conflicts before it is sent.
    init(
        _ changes: [QueuedChange],
        types recordTypes: [RecordKey: String],
        checksVersions: (QueuedChange) -> Bool
    ) {
        var excluded: Set<RecordKey> = []
        for (position, change) in changes.enumerated() {
            let key = RecordKey(collection: change.collection, id: change.recordID)
            guard case .pending = change.state, !excluded.contains(key), !checksVersions(change),
                let (operation, type) = operation(for: change, type: recordTypes[key])
            else {
                excluded.insert(key)
                continue
            }
            positions.append(position)
            operations.append(operation)
            types.append(type)
            if change.method == .create, TemporaryID.isTemporary(change.recordID) { created.insert(change.recordID) }
        }
    }

    /// The request body: `{"atomic:operations": [...]}`.
    var document: JSONValue { ["atomic:operations": .array(operations)] }

    /// The resource object a JSON:API change carries (`{"type", "id", "attributes", …}`), or
    /// `nil` for a change in another format.
    static func resource(of change: QueuedChange) -> JSONObject? {
        let data = change.rootKey == "data" ? change.body : change.rootKey == nil ? change.body?["data"] : nil
        guard let resource = data?.objectValue, resource["type"]?.stringValue != nil else { return nil }
        return resource
    }

    /// Whether a change's request asks for JSON:API (its `Accept` or `Content-Type`).
    static func asksForJSONAPI(_ change: QueuedChange) -> Bool {
        change.headers.contains { name, value in
            ["accept", "content-type"].contains(name.lowercased())
                && value.lowercased().contains(JSONAPIFormat.mediaType)
        }
    }

    /// The operation object of a change and its resource type; `nil` when it cannot join.
    private func operation(for change: QueuedChange, type recordType: String?) -> (JSONValue, String)? {
        let isTemporary = TemporaryID.isTemporary(change.recordID)
        let operation: JSONObject
        let type: String
        switch change.method {
        case .create, .update, .patch:
            guard var resource = Self.resource(of: change), let resourceType = resource["type"]?.stringValue else {
                return nil
            }
            type = resourceType
            if isTemporary {
                resource["id"] = nil
                resource["lid"] = .string(change.recordID)
            } else if resource["id"] == nil, change.method != .create {
                resource["id"] = .string(change.recordID)
            }
            if let relationships = resource["relationships"] {
                resource["relationships"] = linkingByLID(relationships)
            }
            operation = ["op": change.method == .create ? "add" : "update", "data": .object(resource)]
        case .delete:
            guard let recordType, Self.asksForJSONAPI(change) else { return nil }
            type = recordType
            let reference = isTemporary ? "lid" : "id"
            operation = ["op": "remove", "ref": .object(["type": .string(type), reference: .string(change.recordID)])]
        default:
            return nil
        }
        let batchCreates = created.union(change.method == .create && isTemporary ? [change.recordID] : [])
        guard Self.namesOnly(batchCreates, in: .object(operation)) else { return nil }
        return (.object(operation), type)
    }

    /// Relationships with each resource identifier whose `id` is a temporary id of the batch
    /// written as `{"type", "lid"}`.
    private func linkingByLID(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(var object):
            if object.count == 2, object["type"] != nil, let id = object["id"]?.stringValue, created.contains(id) {
                object["id"] = nil
                object["lid"] = .string(id)
                return .object(object)
            }
            return .object(JSONObject(uniqueKeysWithLastValues: object.map { ($0.key, linkingByLID($0.value)) }))
        case .array(let array):
            return .array(array.map(linkingByLID))
        default:
            return value
        }
    }

    /// Whether every temporary id in an operation is a `lid` of one of `creates`: any other
    /// would reach the server as if it were a server id.
    private static func namesOnly(_ creates: Set<String>, in value: JSONValue, key: String? = nil) -> Bool {
        switch value {
        case .string(let string):
            guard TemporaryID.isTemporary(string) else { return true }
            return key == "lid" && creates.contains(string)
        case .array(let array):
            return array.allSatisfy { namesOnly(creates, in: $0) }
        case .object(let object):
            return object.allSatisfy { namesOnly(creates, in: $0.value, key: $0.key) }
        default:
            return true
        }
    }
}
