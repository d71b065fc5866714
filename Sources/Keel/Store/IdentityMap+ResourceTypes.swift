extension IdentityMap {
    /// Registers the model class whose instances the records of a JSON:API resource type
    /// become, so that every `included` resource of the type is merged into the map (see
    /// ``mergeIncluded(from:)``), whether or not a relation of the fetched class links to it.
    ///
    /// A ``Store`` registers by itself every JSON:API class it holds (under the class's
    /// collection path) and the targets of their relations (under their `urlRoot`), so
    /// registering is needed only for a class the store has not met yet, or to choose
    /// another class or path for a type. **Precedence:** a registration made here replaces
    /// one the store or the map made by itself, and those never replace an existing one;
    /// registering a second class for a type registered here throws.
    ///
    /// ```swift
    /// try store.identityMap.registerResourceType(for: Comment.self, collection: "/comments")
    /// try store.identityMap.registerResourceType("node--page", for: Page.self, collection: "/jsonapi/node/page")
    /// ```
    ///
    /// - Parameters:
    ///   - resourceType: The type on the wire; `nil` for the class's own, as its
    ///     ``Model/wireFormat`` names it (``JSONAPIFormat/resourceType(of:)``; JSON:API's
    ///     default naming for a class whose format is not JSON:API).
    ///   - type: The model class.
    ///   - collection: The collection path its records live under, such as `/comments`.
    /// - Throws: ``IdentityMapError/resourceTypeConflict(resourceType:registeredType:newType:)``
    ///   when another class is registered here for the type; the first registration stays.
    public func registerResourceType(
        _ resourceType: String? = nil,
        for type: Model.Type,
        collection: String
    ) throws(IdentityMapError) {
        let name = resourceType ?? (type.wireFormat.jsonAPIFormat ?? JSONAPIFormat()).resourceType(of: type)
        let registration = try resourceTypes.register(name, type: type, collection: collection)
        didRegister?(registration)
    }

    /// Registers a class the store met (and the targets of its relations) unless their
    /// types are known, and tells ``didRegister`` each class met for the first time.
    func registerIfUnknown(_ type: Model.Type, collection: String) {
        for registration in resourceTypes.registerIfUnknown(type, collection: collection) {
            didRegister?(registration)
        }
    }

    /// The model class registered for a JSON:API resource type, if any.
    ///
    /// ```swift
    /// store.identityMap.modelType(forResourceType: "comments")  // Comment.self
    /// ```
    ///
    /// - Parameter resourceType: The type on the wire.
    /// - Returns: The class, or `nil` for a type the map does not know.
    public func modelType(forResourceType resourceType: String) -> Model.Type? {
        resourceTypes[resourceType]?.type
    }

    /// The collection path of every JSON:API resource type the map knows, registered by the
    /// app (``registerResourceType(_:for:collection:)``) or by a ``Store`` for the classes it
    /// holds: where a record of that type lives.
    ///
    /// ```swift
    /// store.identityMap.resourceTypeCollections["comments"]  // "/comments"
    /// ```
    public var resourceTypeCollections: [String: String] { resourceTypes.collections }

    /// Merges the `included` resources of a JSON:API document whose type is registered
    /// (``registerResourceType(_:for:collection:)``) into the map: each becomes the live
    /// instance of its record, updated with the fields it carries (a sparse resource keeps
    /// what it does not carry), or a new registered model.
    ///
    /// A ``Store`` does this after every answer that reads through it (its collections,
    /// queries, ``Store/find(_:id:)``, and fetches and saves of the models it holds), and
    /// ``find(_:id:in:from:)`` does it too; call it yourself for answers read otherwise.
    /// Resources of an unknown type are left alone, and stay reachable in the document
    /// (``SyncResponse/jsonAPIIncluded``).
    ///
    /// Each resource of a document is applied once, through its class's `parse`, however it
    /// is reached: one that a relation applied while this very document was read (an
    /// article's author) is not applied again. Merging the document once more applies every
    /// resource again.
    ///
    /// ```swift
    /// let response = try await article.fetch(options: options)
    /// let merged = try store.identityMap.mergeIncluded(from: response.body ?? .null)
    /// ```
    ///
    /// - Parameter document: A JSON:API document, as the server sent it.
    /// - Returns: The models of the merged resources, in document order.
    /// - Throws: ``SyncError/unmappableResponse(keyPath:reason:)`` when a resource of a
    ///   registered type does not read as a record of its class; nothing is merged then.
    @discardableResult
    public func mergeIncluded(from document: JSONValue) throws(SyncError) -> [Model] {
        // Walked in place: `arrayValue` copies the list.
        guard case .object(let object) = document, case .array(let included)? = object["included"], !included.isEmpty
        else { return [] }
        // The reader indexes the document only if a merged resource has relationships.
        var reader = JSONAPIReader(document: object)
        defer { endStampedRead() }
        // Whether a relation of this very document's read applied records (see below).
        let isStamped = isStampingRead(of: object)
        // The models of the resources applied already, in order, and the records read for the
        // others, with their places among all: most resources of a stamped read were applied,
        // and their models are the answer as they are.
        var merged: [Model] = []
        merged.reserveCapacity(included.count)
        var reads: [IncludedRead] = []
        let names = JSONAPIResourceMembers.Names()
        // The type met last and what merging its resources needs: an `included` list is mostly
        // of one type, whose name is then compared, not hashed.
        var last: IncludedType?
        for index in 0..<included.elements.count {
            // Read in place: binding each element copied it, retaining and releasing its object.
            let element = included.elements.address(of: index)
            guard case .object = element.pointee else { continue }
            // A multi-payload enum keeps each case's payload at offset zero (docs/ABI/TypeLayout.rst).
            let resource = UnsafeRawPointer(element).assumingMemoryBound(to: JSONObject.self)
            let members = JSONAPIResourceMembers(identityOf: resource.pointee, names: names)
            // The type met last is compared where the resource holds its name, without a copy,
            // and used where `last` holds it: a binding of its own retained it per resource.
            if last == nil || !members.hasType(sameBitsAs: last.unsafelyUnwrapped.name, in: resource.pointee) {
                guard case .string(let name)? = JSONAPIResourceMembers.value(at: members.type, in: resource.pointee)
                else { continue }
                if last == nil || !StringIdentity.equal(last.unsafelyUnwrapped.name, name) {
                    guard let entry = resourceTypes[name] else { continue }
                    last = IncludedType(
                        name: name,
                        entry: entry,
                        collection: collectionNumber(of: entry.collection),
                        readsResources: entry.type.wireFormat.jsonAPIFormat != nil
                    )
                }
            }
            // A resource a relation of this document's read applied already, through its class's
            // `parse`, as a class reading JSON:API resources does, is the same record: it is not
            // applied twice. A decimal id is keyed as the integer it reads as, without a value.
            if isStamped, last.unsafelyUnwrapped.readsResources,
                let id = JSONAPIResourceMembers.smallDecimalID(at: members.id, in: resource.pointee).map(RecordID.int)
                    ?? (JSONAPIResourceMembers.smallAppID(at: members.id, in: resource.pointee)
                    ?? JSONAPIResourceMembers.value(at: members.id, in: resource.pointee).map(JSONAPIFormat.appID))
                    .map(RecordID.init),
                let applied = appliedByRead(
                    type: last.unsafelyUnwrapped.modelType,
                    collection: last.unsafelyUnwrapped.collection,
                    id: id
                )
            {
                merged.append(applied)
                continue
            }
            let type = last.unsafelyUnwrapped
            let record = try reader.record(ofIncluded: resource.pointee, at: index, as: type.modelType)
            reads.append(IncludedRead(position: merged.count + reads.count, type: type, record: record))
        }
        guard !reads.isEmpty else { return merged }
        var options = ChangeOptions(parse: true)
        options.wireFormatApplied = true
        var models: [Model] = []
        models.reserveCapacity(merged.count + reads.count)
        var applied = merged.makeIterator()
        for read in reads {
            while models.count < read.position, let model = applied.next() { models.append(model) }
            let entry = read.type.entry
            let (model, isNew) = findOrInsert(
                entry.type,
                collection: entry.collection,
                attributes: read.record,
                options: options
            )
            if isNew { model.markSynced() }
            models.append(model)
        }
        while let model = applied.next() { models.append(model) }
        return models
    }
}

/// A resource type of a document's `included` as ``IdentityMap/mergeIncluded(from:)`` merges
/// its resources: its class and collection, and whether the class reads JSON:API resources.
///
/// A class, so that handing the type met last to each of its resources costs one retain, not
/// a copy of every field.
private final class IncludedType {
    let name: String
    let entry: ResourceTypeRegistry.Entry
    /// The entry's class, read without copying the entry.
    let modelType: Model.Type
    /// The number of the entry's collection path in the map.
    let collection: Int
    let readsResources: Bool

    init(name: String, entry: ResourceTypeRegistry.Entry, collection: Int, readsResources: Bool) {
        self.name = name
        self.entry = entry
        modelType = entry.type
        self.collection = collection
        self.readsResources = readsResources
    }
}

/// An included resource that ``IdentityMap/mergeIncluded(from:)`` read as a record of its
/// class, to apply once every resource has read, at its place among the merged ones.
///
/// A struct, not an enum with a case for a resource applied already: a list of such an enum
/// was copied and destroyed through its type's value witnesses.
private struct IncludedRead {
    let position: Int
    let type: IncludedType
    let record: Attributes
}
