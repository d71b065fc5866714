extension JSONAPIReader {
    /// The resource object of the document with this identity, if it carries one.
    mutating func resource(for key: ResourceKey) -> JSONObject? {
        if index == nil { index = Self.indexOfIncluded(document, names: names) }
        let type = key.type
        if !indexedDataTypes.contains(where: { StringIdentity.equal($0, type) }) {
            indexedDataTypes.append(type)
            addData(ofType: type)
        }
        // Read in place: binding the index would copy it, retaining each of its tables.
        return index?.resource(for: key)
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
        included.elements.withUnsafeBufferPointer { list in
            for value in list { add(value, to: &resources, names: names) }
        }
        return resources
    }

    /// Adds the resource objects of the primary data whose type is `type` to the index.
    private mutating func addData(ofType type: String) {
        guard var resources = index.take() else { return }
        defer { index = resources }
        let names = names
        func addIfOfType(_ value: JSONValue) {
            guard case .object(let resource) = value,
                case .string(let name)? = JSONAPIResourceMembers.value(
                    at: JSONAPIResourceMembers(identityOf: resource, names: names).type,
                    in: resource
                ),
                StringIdentity.equal(name, type)
            else { return }
            Self.add(value, to: &resources, names: names)
        }
        switch document["data"] {
        case .array(let list)?:
            list.elements.withUnsafeBufferPointer { list in
                for value in list { addIfOfType(value) }
            }
        case let single?: addIfOfType(single)
        case nil: break
        }
    }

    /// Adds a resource object of the document to `resources`; a value that is no resource
    /// object with an identity is left out.
    private static func add(
        _ value: JSONValue,
        to resources: inout JSONAPIResourceIndex,
        names: JSONAPIResourceMembers.Names
    ) {
        guard case .object(let resource) = value,
            let key = JSONAPIResourceMembers(identityOf: resource, names: names).key(in: resource)
        else { return }
        // A resource listed twice (a server that repeats one) keeps the fields of both.
        resources.add(resource, for: key, merge: merged)
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
