// MARK: - The records a document read links to

extension IdentityMap {
    /// The stamp of the read of `document`: the same for every record a relation of one
    /// document read hands over, a new one for another document.
    ///
    /// A JSON:API read hands a resource to the map once per record that links to it (two
    /// articles by one author), and ``mergeIncluded(from:)`` hands it again; each applies the
    /// same record of the same document, through its class's `parse`. The entry of a model
    /// remembers the stamp of the last read that applied a linked record to it, so the map
    /// applies each resource of a document once. The document is kept, so that another one
    /// cannot take its address while the stamp stands, until its merge or the next
    /// document's read.
    ///
    /// A new document makes room in the table for as many more entries as it has resources,
    /// so that its models do not grow the table step by step.
    func linkStamp(for document: JSONObject) -> Int {
        if let stampedDocument, stampedDocument.isIdentical(to: document) { return readStamp }
        stampedDocument = document
        readStamp += 1
        reserveCapacity(adding: Self.resourceCount(of: document))
        return readStamp
    }

    /// How many resource objects a JSON:API document lists, primary and included.
    private static func resourceCount(of document: JSONObject) -> Int {
        var count = 0
        if case .array(let included)? = document["included"] { count += included.count }
        switch document["data"] {
        case .array(let data)?: count += data.count
        case .object?: count += 1
        default: break
        }
        return count
    }

    /// Records on the entry of `model` under `key` that the read with `stamp` applied a
    /// record to it.
    func markApplied(_ model: Model, at key: RecordKey, stamp: Int) {
        guard let slot = entries.slot(of: key), entries[entryAt: slot].holds(model) else { return }
        entries[entryAt: slot].stamp = stamp
    }

    /// Sets a record that a relation of a read hands the model it links already, unless the
    /// same document read applied it to the model already.
    func applyLinkedRecord(_ record: Attributes, to model: Model, collection: String, options: ChangeOptions) {
        guard let document = options.linkedDocument, let id = model.storedID, !id.isNull else {
            model.set(record, options: options)
            return
        }
        let stamp = linkStamp(for: document)
        let key = self.key(collection, id: id)
        guard let slot = entries.slot(of: key), entries[entryAt: slot].holds(model) else {
            model.set(record, options: options)
            return
        }
        if entries[entryAt: slot].stamp == stamp { return }
        model.set(record, options: options)
        markApplied(model, at: key, stamp: stamp)
    }

    /// Whether the map is stamping the records of the read of `document`
    /// (``linkStamp(for:)``): ``appliedByRead(type:collection:id:)`` finds them then.
    func isStampingRead(of document: JSONObject) -> Bool {
        stampedDocument?.isIdentical(to: document) == true
    }

    /// The live model of `type` under the collection numbered `collection` that the read being
    /// stamped applied the resource with this id (the key of ``JSONAPIFormat``'s reading of its
    /// wire id) to, through a relation: ``mergeIncluded(from:)`` skips it.
    func appliedByRead(type: Model.Type, collection: Int, id: RecordID) -> Model? {
        let key = RecordKey(collection: collection, id: id)
        guard let entry = entries[key], entry.stamp == readStamp else { return nil }
        let model = entry.model
        return ObjectIdentifier(Swift.type(of: model)) == ObjectIdentifier(type) ? model : nil
    }

    /// Ends the read of the document being stamped: a later merge of the same document
    /// applies every resource again.
    func endStampedRead() {
        stampedDocument = nil
    }
}
