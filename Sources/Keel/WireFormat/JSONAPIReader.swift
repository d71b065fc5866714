/// Reads JSON:API response documents into app records: each resource object's `id`,
/// `attributes` and `relationships`, with the records of `included` (and of the primary
/// data) nested into the relations that link to them, by `(type, id)`.
///
/// A reader does per document and per class only what the document asks for: the index of
/// the document's resources is built at the first relationship that links to one, what a
/// class's relations need is looked up once per class, and the key path of a place in the
/// document is spelled out only for the error that names it.
struct JSONAPIReader {
    /// A resource's identity in a document.
    private typealias ResourceKey = JSONAPIResourceIndex.Key

    /// A wire format as the reader applies it, shared by reference: a record read in it
    /// costs one retain, not a copy of every member of the format.
    private final class FormatReading {
        let format: WireFormat
        /// Whether the key mapping leaves every name as it is, so records skip it.
        let keepsNames: Bool
        /// Whether a role keeps a member out of records (`sendOnly`, `localOnly`); most
        /// formats have none, and their records skip the filter.
        let dropsMembers: Bool

        init(_ format: WireFormat) {
            self.format = format
            keepsNames = format.keys.isIdentity
            dropsMembers = format.roles.values.contains { !$0.isReceived }
        }

        /// The wire name of a relationship.
        func wireName(for key: String) -> String {
            keepsNames ? key : format.keys.wireName(for: key)
        }
    }

    /// A relation the reader can fill from linkage, with its target's own JSON:API format
    /// (`nil` when the target's format is not JSON:API: its records are read in the owner's).
    private final class Linkable {
        let key: String
        let linkage: RelationLinkage
        let target: Model.Type
        let targetFormat: FormatReading?

        init(_ relation: any RelationImplementation) {
            key = relation.key
            linkage = relation.linkage
            target = relation.targetType
            let format = target.wireFormat
            targetFormat = format.jsonAPIFormat != nil ? FormatReading(format) : nil
        }
    }

    /// The document being read.
    private let document: JSONObject

    /// Every resource object of the document, primary data and `included`, by identity;
    /// built when a relationship first links to one.
    private var index: JSONAPIResourceIndex?

    /// The linkable relations of each class met, by class.
    private var linkablesByClass: [ObjectIdentifier: [Linkable]] = [:]

    /// The class ``linkables(of:)`` answered for last, and its answer: a list document's
    /// records are of one class, and so are the records its relations link to.
    private var lastLinkables: (type: ObjectIdentifier, linkables: [Linkable])?

    /// The wire format of each class met as the class of a record read on its own, by class.
    private var formatsByClass: [ObjectIdentifier: FormatReading] = [:]

    /// A reader of a document.
    init(document: JSONObject) {
        self.document = document
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
        var reader = JSONAPIReader(document: document)
        var ancestors: [ResourceKey] = []
        return .object(
            try reader.record(
                resource,
                as: modelType,
                format: FormatReading(format),
                at: { "data" },
                ancestors: &ancestors
            )
        )
    }

    /// The records of a list document (`data` an array).
    static func records(
        from document: JSONObject,
        as modelType: Model.Type,
        format: WireFormat
    ) throws(SyncError) -> JSONValue {
        // Walked in place: `arrayValue` copies the list.
        guard case .array(let list)? = document["data"] else {
            throw .unmappableResponse(keyPath: "data", reason: "a JSON:API list document has an array under \"data\"")
        }
        var reader = JSONAPIReader(document: document)
        var ancestors: [ResourceKey] = []
        let reading = FormatReading(format)
        var records: [JSONValue] = []
        records.reserveCapacity(list.count)
        for (index, value) in list.enumerated() {
            guard let resource = value.objectValue else {
                throw .unmappableResponse(
                    keyPath: "data[\(index)]",
                    reason: "a resource is an object, not \(value.debugDescription)"
                )
            }
            let record = try reader.record(
                resource,
                as: modelType,
                format: reading,
                at: { "data[\(index)]" },
                ancestors: &ancestors
            )
            records.append(.object(record))
        }
        return .array(records)
    }

    /// The resource object at `index` in the document's `included`, as app attributes of
    /// `modelType` in the class's own format, with the records it links to nested as the
    /// primary data's are.
    mutating func record(
        ofIncluded resource: JSONObject,
        at index: Int,
        as modelType: Model.Type
    ) throws(SyncError) -> JSONObject {
        let key = ObjectIdentifier(modelType)
        let format: FormatReading
        if let known = formatsByClass[key] {
            format = known
        } else {
            format = FormatReading(modelType.wireFormat)
            formatsByClass[key] = format
        }
        var ancestors: [ResourceKey] = []
        return try record(resource, as: modelType, format: format, at: { "included[\(index)]" }, ancestors: &ancestors)
    }

    /// One resource object as app attributes of `modelType`.
    ///
    /// `ancestors` are the resources being read around this one, innermost last: a relation
    /// that links back to one of them gets the id alone, which ends a cycle. `path` spells
    /// the resource's key path, for an error.
    private mutating func record(
        _ resource: JSONObject,
        as modelType: Model.Type,
        format: FormatReading,
        at path: () -> String,
        ancestors: inout [ResourceKey]
    ) throws(SyncError) -> JSONObject {
        var wireAttributes = JSONObject()
        if let attributes = resource["attributes"] {
            guard let object = attributes.objectValue else {
                throw .unmappableResponse(
                    keyPath: "\(path()).attributes",
                    reason: "attributes are an object, not \(attributes.debugDescription)"
                )
            }
            wireAttributes = object
        }
        var record = format.keepsNames ? wireAttributes : format.format.keys.toApp(wireAttributes)
        if format.dropsMembers { record = record.filter { format.format.roles[$0.key]?.isReceived ?? true } }
        let relationships = resource["relationships"]?.objectValue
        // The record shares its storage with the document: it is copied once, with room for
        // the id and, per relationship, a foreign key and the linked record.
        record.reserveCapacity(record.count + 1 + 2 * (relationships?.count ?? 0))
        if let id = resource["id"] { record[modelType.idAttribute] = JSONAPIFormat.appID(id) }
        guard let relationships else { return record }
        let ownKey = Self.key(of: resource)
        if let ownKey { ancestors.append(ownKey) }
        defer { if ownKey != nil { ancestors.removeLast() } }
        for linkable in linkables(of: modelType) {
            let name = format.wireName(for: linkable.key)
            // A relationship with links or meta only says nothing about its records.
            guard let data = relationships[name]?["data"] else { continue }
            let targetFormat = linkable.targetFormat ?? format
            switch linkable.linkage {
            case .toOne(let foreignKey):
                if data.isNull {
                    if let foreignKey { record[foreignKey] = .null }
                    record[linkable.key] = .null
                    continue
                }
                let (key, linked) = try linkedRecord(
                    data,
                    as: linkable.target,
                    format: targetFormat,
                    at: { "\(path()).relationships.\(name).data" },
                    ancestors: &ancestors
                )
                if let foreignKey { record[foreignKey] = JSONAPIFormat.appID(.string(key.id)) }
                record[linkable.key] = .object(linked)
            case .toMany:
                guard let members = data.arrayValue else {
                    throw .unmappableResponse(
                        keyPath: "\(path()).relationships.\(name).data",
                        reason: "a to-many relationship's data is an array, not \(data.debugDescription)"
                    )
                }
                var linked: [JSONValue] = []
                linked.reserveCapacity(members.count)
                for (index, member) in members.enumerated() {
                    let (_, memberRecord) = try linkedRecord(
                        member,
                        as: linkable.target,
                        format: targetFormat,
                        at: { "\(path()).relationships.\(name).data[\(index)]" },
                        ancestors: &ancestors
                    )
                    linked.append(.object(memberRecord))
                }
                record[linkable.key] = .array(linked)
            }
        }
        return record
    }

    /// The record a resource identifier links to: the included resource read in full, or the
    /// id alone when the document does not include it or it is being read around this one.
    private mutating func linkedRecord(
        _ identifier: JSONValue,
        as modelType: Model.Type,
        format: FormatReading,
        at path: () -> String,
        ancestors: inout [ResourceKey]
    ) throws(SyncError) -> (ResourceKey, JSONObject) {
        guard let object = identifier.objectValue, let key = Self.key(of: object) else {
            throw .unmappableResponse(
                keyPath: path(),
                reason: "a resource identifier is {\"type\", \"id\"}, not \(identifier.debugDescription)"
            )
        }
        guard !ancestors.contains(key), let resource = resource(for: key) else {
            return (key, [modelType.idAttribute: JSONAPIFormat.appID(.string(key.id))])
        }
        return (key, try record(resource, as: modelType, format: format, at: path, ancestors: &ancestors))
    }

    /// The relations of `modelType` that linkage fills, looked up once per class: reading
    /// `relations` builds the class's list, and each member is cast.
    private mutating func linkables(of modelType: Model.Type) -> [Linkable] {
        let key = ObjectIdentifier(modelType)
        if let last = lastLinkables, last.type == key { return last.linkables }
        let found: [Linkable]
        if let known = linkablesByClass[key] {
            found = known
        } else {
            found = modelType.relations.compactMap { ($0 as? any RelationImplementation).map(Linkable.init) }
            linkablesByClass[key] = found
        }
        lastLinkables = (key, found)
        return found
    }

    /// The resource object of the document with this identity, if it carries one.
    private mutating func resource(for key: ResourceKey) -> JSONObject? {
        if let index { return index.resource(for: key) }
        let built = Self.index(of: document)
        index = built
        return built.resource(for: key)
    }

    /// Every resource object of a document, primary data and `included`, by identity.
    private static func index(of document: JSONObject) -> JSONAPIResourceIndex {
        // The lists are walked in place: `arrayValue` copies them.
        var included = JSONArray()
        if case .array(let list)? = document["included"] { included = list }
        var data = JSONArray()
        switch document["data"] {
        case .array(let list)?: data = list
        case let single?: data = [single]
        case nil: break
        }
        var resources = JSONAPIResourceIndex(capacity: included.count + data.count)
        for list in [included, data] {
            for value in list {
                guard case .object(let resource) = value, let key = Self.key(of: resource) else { continue }
                // A resource listed twice (a server that repeats one) keeps the fields of both.
                resources.add(resource, for: key, merge: merged)
            }
        }
        return resources
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
