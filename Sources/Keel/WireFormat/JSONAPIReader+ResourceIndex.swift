extension JSONAPIReader {
    /// The resource object of the document with this identity, if it carries one.
    mutating func resource(for key: ResourceKey) -> JSONObject? {
        prepareIndex(forType: key.type)
        // Read in place: binding the index would copy it, retaining each of its tables.
        return index?.resource(for: key)
    }

    /// ``resource(for:)`` for a small identity, by its words (``JSONAPIResourceIndex/Key/smallWords``).
    mutating func resource(
        forSmall words: (type: JSONAPIResourceIndex.Words, id: JSONAPIResourceIndex.Words)
    ) -> JSONObject? {
        prepareIndex(forType: words.type.text)
        return index?.resource(forSmall: words)
    }

    /// Indexes the document's `included` at the first lookup, and its primary resources of
    /// `type` at the first lookup of that type.
    private mutating func prepareIndex(forType type: String) {
        if index == nil { index = Self.indexOfIncluded(document, names: names) }
        if !indexedDataTypes.contains(where: { StringIdentity.equal($0, type) }) {
            indexedDataTypes.append(type)
            addData(ofType: type)
        }
    }

    /// The resource objects of a document's `included`, by identity, with room for its
    /// primary data's.
    private static func indexOfIncluded(
        _ document: JSONObject,
        names: JSONAPIResourceMembers.Names
    ) -> JSONAPIResourceIndex {
        // The list is walked in place: `arrayValue` copies it.
        var included = JSONArray()
        if case .array(let list)? = document["included"] { included = list }
        var dataCount = 0
        switch document["data"] {
        case .array(let list)?: dataCount = list.count
        case .some: dataCount = 1
        case nil: break
        }
        var resources = JSONAPIResourceIndex(capacity: included.count + dataCount)
        // Each element is read where it lies: a loop over the values copied each one out.
        included.elements.withUnsafeBufferPointer { list in
            guard let first = list.baseAddress else { return }
            for position in list.indices { add(first + position, to: &resources, names: names) }
        }
        return resources
    }

    /// Adds the resource objects of the primary data whose type is `type` to the index.
    private mutating func addData(ofType type: String) {
        guard var resources = index.take() else { return }
        defer { index = resources }
        let names = names
        func addIfOfType(_ value: UnsafePointer<JSONValue>) {
            guard case .object = value.pointee else { return }
            // Read where it lies, as ``add(_:to:names:)`` reads it; the type by its bits first,
            // which tell most resources of another type apart without a copy.
            let resource = UnsafeRawPointer(value).assumingMemoryBound(to: JSONObject.self)
            let members = JSONAPIResourceMembers(identityOf: resource.pointee, names: names)
            switch members.hasType(type, byBitsIn: resource.pointee) {
            case true?: break
            case false?: return
            case nil:
                guard case .string(let name)? = JSONAPIResourceMembers.value(at: members.type, in: resource.pointee),
                    name == type
                else { return }
            }
            Self.add(value, to: &resources, names: names)
        }
        switch document["data"] {
        case .array(let list)?:
            list.elements.withUnsafeBufferPointer { list in
                guard let first = list.baseAddress else { return }
                for position in list.indices { addIfOfType(first + position) }
            }
        case let single?: withUnsafePointer(to: single) { addIfOfType($0) }
        case nil: break
        }
    }

    /// Adds the resource object at `value`, a value of the document, to `resources`; a value
    /// that is no resource object with an identity is left out.
    ///
    /// The object is read where it lies, and copied once, into the index: binding it copied it
    /// once more, retaining and releasing it.
    private static func add(
        _ value: UnsafePointer<JSONValue>,
        to resources: inout JSONAPIResourceIndex,
        names: JSONAPIResourceMembers.Names
    ) {
        guard case .object = value.pointee else { return }
        // A multi-payload enum keeps each case's payload at offset zero (docs/ABI/TypeLayout.rst).
        let resource = UnsafeRawPointer(value).assumingMemoryBound(to: JSONObject.self)
        let members = JSONAPIResourceMembers(identityOf: resource.pointee, names: names)
        // A resource listed twice (a server that repeats one) keeps the fields of both. A small
        // identity goes in by its words: a key of its own was destroyed through the runtime's
        // witness of an optional.
        if let words = members.smallIdentityWords(in: resource.pointee) {
            resources.add(resource.pointee, forSmall: words, merge: merged)
            return
        }
        guard let key = members.key(in: resource.pointee) else { return }
        resources.add(resource.pointee, for: key, merge: merged)
    }

    /// Throws when the document's `included` is there and is no list (`null` reads as none).
    static func checkIncluded(of document: JSONObject) throws(SyncError) {
        switch document["included"] {
        case nil, .null?, .array?: return
        case let included?:
            throw .unmappableResponse(
                keyPath: "included",
                reason: "a JSON:API document lists its included resources in an array, not \(included.debugDescription)"
            )
        }
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
