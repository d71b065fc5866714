extension Model {
    // MARK: - Relations in request bodies

    /// A save's body with each relation it holds encoded as the relation declares:
    /// `attributes` is ``toJSON(options:)`` for a full save, the changes for a patch.
    func encodingRelations(in attributes: Attributes, changesOnly: Bool) -> EncodedRecord {
        // A model without relations is encoded as it is, without a set of visited models.
        guard relationLinks != nil else { return EncodedRecord(attributes: attributes) }
        var visited: Set<ObjectIdentifier> = [ObjectIdentifier(self)]
        return encodingRelations(in: attributes, changesOnly: changesOnly, visited: &visited)
    }

    /// ``encodingRelations(in:changesOnly:)`` for a model inside a body: `visited` holds the
    /// models whose records are being built around this one.
    private func encodingRelations(
        in attributes: Attributes,
        changesOnly: Bool,
        visited: inout Set<ObjectIdentifier>
    ) -> EncodedRecord {
        guard let links = relationLinks else { return EncodedRecord(attributes: attributes) }
        var record = EncodedRecord(attributes: attributes)
        for (key, link) in links.sorted(by: { $0.key < $1.key }) {
            guard attributes.contains(key) || link.hasPendingRemovals else { continue }
            record.attributes.removeValue(forKey: key)
            for (name, value) in link.encoded(changesOnly: changesOnly, visited: &visited) {
                record.nested[name] = value
            }
        }
        return record
    }

    /// This model's record as it goes inside an owner's request body (NSRails'
    /// `shouldSendProperty:whenNested:`), in the wire names of its own class's format.
    ///
    /// The class's roles apply as to a record of its own, except that the id is always sent
    /// (so the server updates the record instead of creating another), and its dates go in
    /// their formats. Its own relations are encoded as they declare, their empty ones (`nil`,
    /// `[]`) left out; a model already being encoded around this one (a relation back to an
    /// owner) goes without its relations, which ends any cycle. The format's root key, Drupal
    /// field wrapping and body parameters belong to top-level records and are not applied.
    func nestedRecord(
        _ attributes: Attributes,
        changesOnly: Bool,
        visited: inout Set<ObjectIdentifier>
    ) -> Attributes {
        let format = Self.wireFormat
        var record: EncodedRecord
        if visited.insert(ObjectIdentifier(self)).inserted {
            record = encodingRelations(in: attributes, changesOnly: changesOnly, visited: &visited)
            visited.remove(ObjectIdentifier(self))
            record.nested = record.nested.filter { $0.value != .null && $0.value != [] }
        } else {
            let relationKeys = relationLinks?.keys
            record = EncodedRecord(attributes: attributes.filter { relationKeys?.contains($0.key) != true })
        }
        let idAttribute = self.idAttribute
        var sent = record.attributes.filter { key, value in
            key == idAttribute ? !value.isNull : format.roles[key]?.isSent ?? true
        }
        sent = format.wireDates(sent)
        var wire = format.keys.toWire(sent)
        for (key, value) in record.nested where format.roles[key]?.isSent ?? true {
            wire[format.keys.wireName(for: key)] = value
        }
        return wire
    }

    /// The record that asks an owner's server to destroy this related model (Rails'
    /// `allow_destroy`): its id and `_destroy`, in its class's wire names.
    var nestedDestruction: JSONValue? {
        guard let id, !id.isNull else { return nil }
        return .object([Self.wireFormat.keys.wireName(for: idAttribute): id, "_destroy": true])
    }
}

/// A record for a request body: its attributes (app names) and the entries its relations
/// encode to (app names for the keys, the values in the related classes' wire formats, which
/// the owner's format does not map again).
struct EncodedRecord {
    var attributes: Attributes
    var nested = Attributes()

    /// Whether the record sends nothing.
    var isEmpty: Bool { attributes.isEmpty && nested.isEmpty }
}
