/// Builds JSON:API request documents: a record's attributes (app names, relations encoded as
/// the relation declares) as one resource object with `type`, `id`, `attributes` and
/// `relationships` linkage.
struct JSONAPIWriter {
    let format: WireFormat
    let jsonAPI: JSONAPIFormat

    /// `{"data": {"type", "id", "attributes", "relationships"}}` for one record.
    ///
    /// The id goes as a string; a ``BelongsTo``'s foreign key, a ``HasOne``'s model and a
    /// ``HasMany``'s models (or ids) go as linkage. Related records without an id cannot be
    /// linked yet and are left out.
    func document(_ attributes: Attributes, for modelType: Model.Type) -> JSONValue {
        var rest = attributes
        var resource = JSONObject()
        resource["type"] = .string(jsonAPI.resourceType(of: modelType))
        if let id = rest.removeValue(forKey: modelType.idAttribute), let wire = JSONAPIFormat.wireID(id) {
            resource["id"] = .string(wire)
        }
        var relationships = JSONObject()
        for case let relation as any RelationImplementation in modelType.relations {
            let target = relation.targetType
            let type = jsonAPI.linkageType(of: target)
            let embedded = rest.removeValue(forKey: relation.key)
            let linkage: JSONValue?
            switch relation.linkage {
            case .toOne(let foreignKey):
                if let foreignKey, let id = rest.removeValue(forKey: foreignKey) {
                    linkage = Self.identifier(id, type: type) ?? (id.isNull ? .null : nil)
                } else if let embedded {
                    linkage =
                        embedded.isNull
                        ? .null : embedded[target.idAttribute].flatMap { Self.identifier($0, type: type) }
                } else {
                    linkage = nil
                }
            case .toMany:
                let ids = rest.removeValue(forKey: Inflection.singularize(relation.key) + "_ids")
                let members = ids?.arrayValue ?? embedded?.arrayValue?.compactMap { $0[target.idAttribute] }
                linkage = members.map { .array($0.compactMap { Self.identifier($0, type: type) }) }
            }
            if let linkage { relationships[format.keys.wireName(for: relation.key)] = .object(["data": linkage]) }
        }
        if !format.roles.isEmpty { rest = rest.filter { format.roles[$0.key]?.isSent ?? true } }
        resource["attributes"] = .object(format.keys.toWire(rest))
        if !relationships.isEmpty { resource["relationships"] = .object(relationships) }
        return .object(["data": .object(resource)])
    }

    /// A resource identifier object, `{"type", "id"}`; `nil` for a value that is no id.
    static func identifier(_ id: JSONValue, type: String) -> JSONValue? {
        guard let wire = JSONAPIFormat.wireID(id) else { return nil }
        return .object(["type": .string(type), "id": .string(wire)])
    }
}
