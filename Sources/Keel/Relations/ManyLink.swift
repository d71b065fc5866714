/// The live side of a ``HasMany``: a collection of children whose URL is under the owner's.
final class ManyLink<Child: Model>: RelationLink {
    let key: String
    let encoding: RelationEncoding
    let mode: ToManyMode
    unowned let owner: Model
    let collection: Collection<Child>
    /// Ids of children removed since the last sync, for Rails' `_destroy`.
    private var removedIDs: [JSONValue] = []
    /// Whether the owner is merging a value into the collection.
    ///
    /// The collection's events then need no mirroring: the owner's `set` stores the mirror
    /// itself. The collection's handlers
    /// hold it, so that during a merge they return before loading their weak reference to
    /// the link, which cost more than the rest of a child's forwarded `change`.
    private let merging = MergeFlag()

    func position(in attributes: Attributes) -> Int? { attributes.index(forKey: key) }

    init(_ relation: HasMany<Child>, owner: Model) {
        key = relation.key
        encoding = relation.encoding
        mode = relation.mode
        self.owner = owner
        let path = relation.path ?? type(of: owner).wireFormat.keys.wireName(for: relation.key)
        if let builder = owner.storedExtras?.relatedModelBuilder {
            let resource = Child.urlRoot ?? "/" + path
            // Not the owner: the app may keep the collection after the owner is released.
            let source = builder.map
            collection = Collection<Child>(factory: { attributes, options in
                Model.makeRelated(
                    Child.self,
                    resource: resource,
                    attributes,
                    options: options,
                    builder: builder,
                    source: source
                )
            })
        } else {
            collection = Collection<Child>()
        }
        collection.relationOwner = owner
        collection.relationPath = path
        collection.relationKey = relation.key
        collection.on("change", owner: self) { [weak self, merging] event in
            guard !merging.isSet, let self, let child = event.model else { return }
            self.mirrorChange(of: child)
        }
        collection.on("update", owner: self) { [weak self, merging] event in
            guard !merging.isSet, let self, let changes = event.changes else { return }
            for child in changes.removed where !child.isNew && self.mode == .replace {
                if let id = child.id { self.removedIDs.append(id) }
            }
            for child in changes.added { if let id = child.id { self.removedIDs.removeAll { $0 == id } } }
            guard let child = changes.added.first ?? changes.removed.first else { return }
            self.mirrorChange(of: child)
        }
        collection.on("destroy", owner: self) { [weak self] event in
            guard let self, let id = event.model?.id else { return }
            self.removedIDs.removeAll { $0 == id }
        }
        collection.on("reset sort", owner: self) { [weak self, merging] event in
            guard !merging.isSet, let self else { return }
            self.owner.relationDidChange(self, mirror: self.mirror, nested: self.owner, path: self.key)
        }
    }

    /// The children as JSON, in order (read without registering Observation accesses: the
    /// owner's attribute is what observers track).
    ///
    /// The children are read as `[Model]`, so the loop is concrete code where one over
    /// `[Child]` stays generic, and the array is built without an `[JSONValue]` between.
    var mirror: JSONValue {
        .array(JSONArray(children.lazy.map { .object($0.storage) }))
    }

    /// The children as `[Model]`, reinterpreted as ``Collection/upcast(_:)`` does, without
    /// looking up the metadata of `Collection<Child>` that calling it takes.
    private var children: [Model] { unsafeBitCast(collection.storage, to: [Model].self) }

    func merge(_ value: JSONValue?, options: ChangeOptions) -> JSONValue? {
        merging.isSet = true
        defer { merging.isSet = false }
        var elements = JSONArray()
        if case .array(let array)? = value { elements = array }
        // The records as a list only when something needs them: children to give ids to, or
        // a full `set`.
        var records: [Attributes]?
        if children.contains(where: { $0.storedID == nil }) {
            let parsed = Self.records(in: elements)
            adoptIDs(of: parsed)
            records = parsed
        }
        var update = UpdateOptions(options)
        // An add-only relation keeps the children a response leaves out.
        if mode == .addOnly { update.remove = false }
        // A response with the same children in the same order, as a fetch usually brings,
        // is merged into them without the bookkeeping of a full `set`.
        if !collection.mergeInPlace(elements, options: update) {
            collection.set(records ?? Self.records(in: elements), silent: options.silent, options: update)
        }
        return value == nil ? nil : mirror
    }

    func encoded(changesOnly: Bool, visited: inout Set<ObjectIdentifier>) -> [(key: String, value: JSONValue)] {
        let children = collection.models
        switch encoding {
        case .embedded:
            var records: [JSONValue] = []
            for child in children where mode == .replace || child.isNew {
                records.append(.object(child.nestedRecord(child.toJSON(), changesOnly: false, visited: &visited)))
            }
            return [(key, .array(records))]
        case .nestedAttributes:
            var records: [JSONValue] = []
            for child in children {
                if child.isMarkedForDestruction {
                    if let destruction = child.nestedDestruction { records.append(destruction) }
                } else if child.isNew {
                    records.append(.object(child.nestedRecord(child.toJSON(), changesOnly: false, visited: &visited)))
                } else if mode == .replace, var changes = child.unsavedChanges, let id = child.id {
                    changes[child.idAttribute] = id
                    records.append(.object(child.nestedRecord(changes, changesOnly: true, visited: &visited)))
                }
            }
            for id in removedIDs {
                records.append([Child.wireFormat.keys.wireName(for: Child.idAttribute): id, "_destroy": true])
            }
            return records.isEmpty ? [] : [(key + "_attributes", .array(records))]
        case .ids:
            return [(Inflection.singularize(key) + "_ids", .array(children.compactMap(\.id)))]
        case .omitted:
            return []
        }
    }

    var hasPendingRemovals: Bool {
        !removedIDs.isEmpty
            || encoding == .nestedAttributes && children.contains { $0.isMarkedForDestruction && !$0.isNew }
    }

    func shapeError(of value: JSONValue) -> String? {
        if value == .null { return nil }
        guard case .array(let items) = value else { return "must be a list of records" }
        // Matched in place: iterating the array or reading `objectValue` copies each record.
        let allRecords = items.withContiguousStorageIfAvailable { values in
            values.allSatisfy { value in
                if case .object = value { return true }
                return false
            }
        }
        return allRecords ?? items.allSatisfy({ $0.objectValue != nil }) ? nil : "must be a list of records"
    }

    var relatedModels: [(path: String, model: Model)] {
        collection.models.enumerated().map { ("\(key)[\($0.offset)]", $0.element) }
    }

    func markSynced(visited: inout Set<ObjectIdentifier>) {
        removedIDs.removeAll()
        for child in collection.models { child.markSynced(visited: &visited) }
    }

    /// The records of a has-many's value, which ``shapeError(of:)`` found to be all objects.
    private static func records(in elements: JSONArray) -> [Attributes] {
        var records: [Attributes] = []
        records.reserveCapacity(elements.count)
        for case .object(let record) in elements { records.append(record) }
        return records
    }

    private func mirrorChange(of child: Model) {
        let path = collection.models.firstIndex { $0 === child }.map { "\(key)[\($0)]" } ?? key
        owner.relationDidChange(self, mirror: mirror, nested: child, path: path)
    }

    /// Gives children created here, still without an id, the ids of their records.
    ///
    /// The records are those the server answered with in their place (the new records, in
    /// order), so the children stay the same instances after the save that created them.
    /// Called only when a child is new.
    private func adoptIDs(of records: [Attributes]) {
        // As `[Model]`: a `[Child]` is generic code, whose metadata is looked up on each call.
        let children = children
        var newChildren: [Model] = []
        for child in children where child.storedID == nil { newChildren.append(child) }
        let idAttribute = Child.idAttribute
        let unmatched = records.filter { record in
            guard let id = record[idAttribute], id != .null else { return false }
            return collection.get(id) == nil
        }
        for (child, record) in zip(newChildren, unmatched) {
            if let id = record[idAttribute] { child.set([idAttribute: id], silent: true, validate: false) }
        }
    }
}

/// Whether a ``ManyLink`` is merging into its collection: a flag in an object of its own,
/// which the collection's handlers hold strongly (it holds nothing, so no cycle forms).
private final class MergeFlag {
    /// Never accessed across a call that could overlap, so without the run-time check.
    @exclusivity(unchecked) var isSet = false
}
