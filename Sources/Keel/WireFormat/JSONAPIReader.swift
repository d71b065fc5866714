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
    typealias ResourceKey = JSONAPIResourceIndex.Key

    /// A wire format as the reader applies it, shared by reference: a record read in it
    /// costs one retain, not a copy of every member of the format.
    final class FormatReading {
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
    final class Linkable {
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
    let document: JSONObject

    /// The names of the members of a resource object, made once per read.
    let names = JSONAPIResourceMembers.Names()

    /// The resource objects of the document by identity: those of `included`, added when a
    /// relationship first links to one, and those of the primary data of each type a
    /// relationship has linked to (``indexedDataTypes``).
    var index: JSONAPIResourceIndex?

    /// The types whose primary-data resources are in ``index``.
    ///
    /// A list's primary data is mostly of the fetched class, which its relationships seldom
    /// link to: indexing all of it cost as much as indexing `included`, for lookups of other
    /// types. A primary resource is added after every `included` one, as when all were indexed
    /// at once, so a resource listed in both keeps the fields of both in the same order.
    var indexedDataTypes: [String] = []

    /// The linkable relations of each class met, in the order met: a read meets a few
    /// classes, which a list finds without hashing.
    private var linkablesByClass: [(type: ObjectIdentifier, linkables: [Linkable])] = []

    /// The class ``linkables(of:)`` answered for last, and its answer: a list document's
    /// records are of one class, and so are the records its relations link to.
    private var lastLinkables: (type: ObjectIdentifier, linkables: [Linkable])?

    /// The wire format of each class met as the class of a record read on its own, in the
    /// order met (a list for the reason ``linkablesByClass`` is).
    private var formatsByClass: [(type: ObjectIdentifier, format: FormatReading)] = []

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
        try checkIncluded(of: document)
        var reader = JSONAPIReader(document: document)
        var ancestors = Ancestors()
        let reading = FormatReading(format)
        return .object(
            try withUnsafePointer(to: Place(.data)) { place throws(SyncError) in
                try reader.record(resource, as: modelType, format: reading, at: place, ancestors: &ancestors)
            }
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
        try checkIncluded(of: document)
        var reader = JSONAPIReader(document: document)
        var ancestors = Ancestors()
        let reading = FormatReading(format)
        // Built as the list it is returned as, not a Swift array converted after.
        var records = JSONArray()
        records.reserveCapacity(list.count)
        for (index, value) in list.enumerated() {
            guard case .object(let resource) = value else {
                throw .unmappableResponse(
                    keyPath: "data[\(index)]",
                    reason: "a resource is an object, not \(value.debugDescription)"
                )
            }
            let record = try withUnsafePointer(to: Place(.dataElement(index))) { place throws(SyncError) in
                try reader.record(resource, as: modelType, format: reading, at: place, ancestors: &ancestors)
            }
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
        if let known = formatsByClass.first(where: { $0.type == key }) {
            format = known.format
        } else {
            format = FormatReading(modelType.wireFormat)
            formatsByClass.append((key, format))
        }
        var ancestors = Ancestors()
        return try withUnsafePointer(to: Place(.included(index))) { place throws(SyncError) in
            try record(resource, as: modelType, format: format, at: place, ancestors: &ancestors)
        }
    }

    /// One resource object as app attributes of `modelType`.
    ///
    /// `ancestors` are the resources being read around this one, innermost last: a relation
    /// that links back to one of them gets the id alone, which ends a cycle. `place` is where
    /// the resource sits, for an error. `appID` is the app value of the resource's
    /// `id` when the caller has it already (the linkage that led here carried the same id).
    private mutating func record(
        _ resource: JSONObject,
        as modelType: Model.Type,
        format: FormatReading,
        appID: JSONValue? = nil,
        at place: UnsafePointer<Place>,
        ancestors: inout Ancestors
    ) throws(SyncError) -> JSONObject {
        // One pass over the resource's members, where four lookups searched it four times.
        let members = JSONAPIResourceMembers(of: resource, names: names)
        // `attributes` and `relationships` are read where the resource holds them: a binding of
        // each retained and released it.
        let attributesAddress = Self.objectAddress(at: members.attributes, in: resource)
        if members.attributes >= 0 && attributesAddress == nil {
            throw Self.notAnObject(resource.value(at: members.attributes), at: place)
        }
        let relationshipsAddress = Self.objectAddress(at: members.relationships, in: resource)
        // The attributes share their storage with the document: they are copied once, with
        // room for the id and, per relationship, a foreign key and the linked record.
        let extra = 1 + 2 * (relationshipsAddress?.pointee.count ?? 0)
        var builder: JSONAPIRecordBuilder
        if let attributesAddress, format.keepsNames && !format.dropsMembers {
            builder = JSONAPIRecordBuilder(attributesAt: attributesAddress, extra: extra)
        } else {
            let wireAttributes = attributesAddress?.pointee ?? JSONObject()
            var attributes = format.keepsNames ? wireAttributes : format.format.keys.toApp(wireAttributes)
            if format.dropsMembers {
                attributes = attributes.filter { format.format.roles[$0.key]?.isReceived ?? true }
            }
            builder = withUnsafePointer(to: attributes) { JSONAPIRecordBuilder(attributesAt: $0, extra: extra) }
        }
        if let appID {
            // The linkage that led here carried the id this resource's identity was matched by.
            builder.set(appID, for: modelType.idAttribute)
        } else if let id = JSONAPIResourceMembers.smallAppID(at: members.id, in: resource) {
            builder.set(id, for: modelType.idAttribute)
        } else if let id = JSONAPIResourceMembers.value(at: members.id, in: resource) {
            switch id {
            case .string, .int, .null:
                builder.set(JSONAPIFormat.appID(id), for: modelType.idAttribute)
            default:
                throw Self.unmappable(
                    at: place,
                    member: ".id",
                    reason: "a resource's id is a string, not \(id.debugDescription)"
                )
            }
        }
        guard let relationships = relationshipsAddress?.pointee else { return builder.record() }
        // Not restored on a throw, which ends the whole read.
        let pushed = ancestors.push(identityOf: resource, members: members)
        for linkable in linkables(of: modelType) {
            let name = format.wireName(for: linkable.key)
            // A relationship with links or meta only says nothing about its records.
            guard let data = Self.linkage(named: name, in: relationships) else { continue }
            let targetFormat = linkable.targetFormat ?? format
            let linkage = Place.Step.linkage(.passUnretained(linkable), format: .passUnretained(format), member: nil)
            switch linkable.linkage {
            case .toOne(let foreignKey):
                if data.isNull {
                    if let foreignKey { builder.set(.null, for: foreignKey) }
                    builder.set(.null, for: linkable.key)
                    continue
                }
                let (linkedID, linked) = try withUnsafePointer(to: Place(linkage, in: place)) {
                    dataPlace throws(SyncError) in
                    try linkedRecord(
                        data,
                        as: linkable.target,
                        format: targetFormat,
                        at: dataPlace,
                        ancestors: &ancestors
                    )
                }
                if let foreignKey { builder.set(linkedID, for: foreignKey) }
                builder.set(.object(linked), for: linkable.key)
            case .toMany:
                guard case .array(let identifiers) = data else {
                    throw Self.unmappable(
                        at: place,
                        linkage: linkage,
                        reason: "a to-many relationship's data is an array, not \(data.debugDescription)"
                    )
                }
                var linked: [JSONValue] = []
                linked.reserveCapacity(identifiers.count)
                for (index, member) in identifiers.enumerated() {
                    let memberPlace = Place(
                        .linkage(.passUnretained(linkable), format: .passUnretained(format), member: index),
                        in: place
                    )
                    let (_, memberRecord) = try withUnsafePointer(to: memberPlace) { memberPlace throws(SyncError) in
                        try linkedRecord(
                            member,
                            as: linkable.target,
                            format: targetFormat,
                            at: memberPlace,
                            ancestors: &ancestors
                        )
                    }
                    linked.append(.object(memberRecord))
                }
                builder.set(.array(linked), for: linkable.key)
            }
        }
        if let pushed { ancestors.pop(pushed) }
        return builder.record()
    }

    /// The record a resource identifier links to, with the app value of its id: the included
    /// resource read in full, or the id alone when the document does not include it or it is
    /// being read around this one.
    private mutating func linkedRecord(
        _ identifier: JSONValue,
        as modelType: Model.Type,
        format: FormatReading,
        at place: UnsafePointer<Place>,
        ancestors: inout Ancestors
    ) throws(SyncError) -> (id: JSONValue, record: JSONObject) {
        guard case .object(let object) = identifier else { throw Self.notAnIdentifier(identifier, at: place) }
        let members = JSONAPIResourceMembers(identityOf: object, names: names)
        // A small identity is looked up by its words: a key of its own was destroyed through the
        // runtime's witness of an optional, about 40 instructions a link.
        let linked: JSONObject?
        if let words = members.smallIdentityWords(in: object) {
            linked = ancestors.contains(words) ? nil : resource(forSmall: words)
        } else {
            linked = try linkedResource(identifiedBy: members, in: object, at: place, ancestors: ancestors)
        }
        // The app id is read once, for the foreign key and the linked record alike; an id that
        // is not a string is read as the text its key was made from.
        let appID: JSONValue
        if let small = JSONAPIResourceMembers.smallAppID(at: members.id, in: object) {
            appID = small
        } else if let wireID = JSONAPIResourceMembers.value(at: members.id, in: object) {
            if case .string = wireID {
                appID = JSONAPIFormat.appID(wireID)
            } else {
                appID = JSONAPIFormat.wireID(wireID).map { JSONAPIFormat.appID(.string($0)) } ?? wireID
            }
        } else {
            throw Self.notAnIdentifier(identifier, at: place)
        }
        guard let linked else { return (appID, [modelType.idAttribute: appID]) }
        return (
            appID,
            try record(linked, as: modelType, format: format, appID: appID, at: place, ancestors: &ancestors)
        )
    }

    /// The resource that the resource identifier `identifier` (whose members are `members`)
    /// links to when its identity is not two small strings: `nil` when the document does not
    /// include it or it is being read around this point.
    ///
    /// - Throws: ``SyncError/unmappableResponse(keyPath:reason:)`` when it has no identity.
    @inline(never)
    private mutating func linkedResource(
        identifiedBy members: JSONAPIResourceMembers,
        in identifier: JSONObject,
        at place: UnsafePointer<Place>,
        ancestors: Ancestors
    ) throws(SyncError) -> JSONObject? {
        guard let key = members.key(in: identifier) else { throw Self.notAnIdentifier(.object(identifier), at: place) }
        return ancestors.contains(key) ? nil : resource(for: key)
    }

    /// The `data` of the relationship `name` among `relationships`, read in place: `nil` when
    /// there is no such relationship, it is no object, or it has no `data` (links or meta only).
    private static func linkage(named name: String, in relationships: JSONObject) -> JSONValue? {
        guard let position = relationships.index(forKey: name),
            case .object(let relationship) = relationships.valueAddress(at: position).pointee,
            let data = relationship.index(forKey: "data")
        else { return nil }
        return relationship.value(at: data)
    }

    /// The address of the object at `position` in `resource`, where the resource holds it
    /// (valid while the resource lives unchanged); `nil` for no member or one that is no object.
    @inline(__always)
    private static func objectAddress(at position: Int, in resource: JSONObject) -> UnsafePointer<JSONObject>? {
        guard position >= 0 else { return nil }
        let value = UnsafeRawPointer(resource.valueAddress(at: position))
        guard case .object = value.assumingMemoryBound(to: JSONValue.self).pointee else { return nil }
        // A multi-payload enum keeps each case's payload at offset zero (docs/ABI/TypeLayout.rst).
        return value.assumingMemoryBound(to: JSONObject.self)
    }

    /// The relations of `modelType` that linkage fills, looked up once per class: reading
    /// `relations` builds the class's list, and each member is cast.
    private mutating func linkables(of modelType: Model.Type) -> [Linkable] {
        let key = ObjectIdentifier(modelType)
        if let last = lastLinkables, last.type == key { return last.linkables }
        let found: [Linkable]
        if let known = linkablesByClass.first(where: { $0.type == key }) {
            found = known.linkables
        } else {
            found = modelType.relations.compactMap { ($0 as? any RelationImplementation).map(Linkable.init) }
            linkablesByClass.append((key, found))
        }
        lastLinkables = (key, found)
        return found
    }
}
