/// Reads JSON:API response documents into app records: each resource object's `id`,
/// `attributes` and `relationships`, with the records of `included` (and of the primary
/// data) nested into the relations that link to them, by `(type, id)`.
struct JSONAPIReader {
    /// A resource's identity in a document.
    private struct ResourceKey: Hashable {
        let type: String
        let id: String
    }

    /// Every resource object of the document, primary data and `included`, by identity.
    private var resources: [ResourceKey: JSONObject] = [:]

    /// Indexes the resources of a document.
    init(document: JSONObject) {
        var all: [JSONValue] = document["included"]?.arrayValue ?? []
        if let data = document["data"] { all += data.arrayValue ?? [data] }
        for value in all {
            guard let resource = value.objectValue, let key = Self.key(of: resource) else { continue }
            // A resource listed twice (a server that repeats one) keeps the fields of both.
            resources[key] = resources[key].map { Self.merged($0, resource) } ?? resource
        }
    }

    /// The record of a single-resource document (`data` an object, or `null`).
    static func record(
        from document: JSONObject,
        as modelType: Model.Type,
        format: WireFormat
    ) throws(SyncError) -> JSONValue {
        guard let data = document["data"] else {
            throw .unmappableResponse(keyPath: "data", reason: "a JSON:API document has its resource under \"data\"")
        }
        if data.isNull { return .null }
        guard let resource = data.objectValue else {
            throw .unmappableResponse(keyPath: "data", reason: "a resource is an object, not \(data.debugDescription)")
        }
        let reader = JSONAPIReader(document: document)
        return .object(try reader.record(resource, as: modelType, format: format, at: "data", ancestors: []))
    }

    /// The records of a list document (`data` an array).
    static func records(
        from document: JSONObject,
        as modelType: Model.Type,
        format: WireFormat
    ) throws(SyncError) -> JSONValue {
        guard let list = document["data"]?.arrayValue else {
            throw .unmappableResponse(keyPath: "data", reason: "a JSON:API list document has an array under \"data\"")
        }
        let reader = JSONAPIReader(document: document)
        var records: [JSONValue] = []
        records.reserveCapacity(list.count)
        for (index, value) in list.enumerated() {
            guard let resource = value.objectValue else {
                throw .unmappableResponse(
                    keyPath: "data[\(index)]",
                    reason: "a resource is an object, not \(value.debugDescription)"
                )
            }
            records.append(
                .object(try reader.record(resource, as: modelType, format: format, at: "data[\(index)]", ancestors: []))
            )
        }
        return .array(records)
    }

    /// One resource object of the document (an `included` one, say) as app attributes of
    /// `modelType`, with the records it links to nested as the primary data's are.
    func record(of resource: JSONObject, as modelType: Model.Type, at path: String) throws(SyncError) -> JSONObject {
        try record(resource, as: modelType, format: modelType.wireFormat, at: path, ancestors: [])
    }

    /// One resource object as app attributes of `modelType`.
    ///
    /// `ancestors` are the resources being read around this one: a relation that links back
    /// to one of them gets the id alone, which ends a cycle.
    private func record(
        _ resource: JSONObject,
        as modelType: Model.Type,
        format: WireFormat,
        at path: String,
        ancestors: Set<ResourceKey>
    ) throws(SyncError) -> JSONObject {
        var wireAttributes = JSONObject()
        if let attributes = resource["attributes"] {
            guard let object = attributes.objectValue else {
                throw .unmappableResponse(
                    keyPath: "\(path).attributes",
                    reason: "attributes are an object, not \(attributes.debugDescription)"
                )
            }
            wireAttributes = object
        }
        var record = format.keys.toApp(wireAttributes)
        if !format.roles.isEmpty { record = record.filter { format.roles[$0.key]?.isReceived ?? true } }
        if let id = resource["id"] { record[modelType.idAttribute] = JSONAPIFormat.appID(id) }
        guard let relationships = resource["relationships"]?.objectValue else { return record }
        var inside = ancestors
        if let key = Self.key(of: resource) { inside.insert(key) }
        for case let relation as any RelationImplementation in modelType.relations {
            let name = format.keys.wireName(for: relation.key)
            // A relationship with links or meta only says nothing about its records.
            guard let data = relationships[name]?["data"] else { continue }
            let target = relation.targetType
            let targetFormat = target.wireFormat.jsonAPIFormat != nil ? target.wireFormat : format
            let linkPath = "\(path).relationships.\(name).data"
            switch relation.linkage {
            case .toOne(let foreignKey):
                if data.isNull {
                    if let foreignKey { record[foreignKey] = .null }
                    record[relation.key] = .null
                    continue
                }
                let (key, linked) = try linkedRecord(
                    data,
                    as: target,
                    format: targetFormat,
                    at: linkPath,
                    inside: inside
                )
                if let foreignKey { record[foreignKey] = JSONAPIFormat.appID(.string(key.id)) }
                record[relation.key] = .object(linked)
            case .toMany:
                guard let members = data.arrayValue else {
                    throw .unmappableResponse(
                        keyPath: linkPath,
                        reason: "a to-many relationship's data is an array, not \(data.debugDescription)"
                    )
                }
                var linked: [JSONValue] = []
                for (index, member) in members.enumerated() {
                    let at = "\(linkPath)[\(index)]"
                    linked.append(
                        .object(try linkedRecord(member, as: target, format: targetFormat, at: at, inside: inside).1)
                    )
                }
                record[relation.key] = .array(linked)
            }
        }
        return record
    }

    /// The record a resource identifier links to: the included resource read in full, or the
    /// id alone when the document does not include it or it is being read around this one.
    private func linkedRecord(
        _ identifier: JSONValue,
        as modelType: Model.Type,
        format: WireFormat,
        at path: String,
        inside ancestors: Set<ResourceKey>
    ) throws(SyncError) -> (ResourceKey, JSONObject) {
        guard let object = identifier.objectValue, let key = Self.key(of: object) else {
            throw .unmappableResponse(
                keyPath: path,
                reason: "a resource identifier is {\"type\", \"id\"}, not \(identifier.debugDescription)"
            )
        }
        guard !ancestors.contains(key), let resource = resources[key] else {
            return (key, [modelType.idAttribute: JSONAPIFormat.appID(.string(key.id))])
        }
        return (key, try record(resource, as: modelType, format: format, at: path, ancestors: ancestors))
    }

    private static func key(of resource: JSONObject) -> ResourceKey? {
        guard let type = resource["type"]?.stringValue, let id = resource["id"].flatMap(JSONAPIFormat.wireID) else {
            return nil
        }
        return ResourceKey(type: type, id: id)
    }

    /// Two copies of one resource as one: the members of both, `attributes` and
    /// `relationships` member by member.
    private static func merged(_ first: JSONObject, _ second: JSONObject) -> JSONObject {
        var result = first
        for (name, value) in second {
            if let old = first[name]?.objectValue, let new = value.objectValue, name != "meta" {
                result[name] = .object(old.merging(new))
            } else {
                result[name] = value
            }
        }
        return result
    }
}
