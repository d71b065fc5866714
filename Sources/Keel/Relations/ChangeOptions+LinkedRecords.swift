// MARK: - The records of a read's relations

extension ChangeOptions {
    /// Internal: the document a read's records come from, when a collection reads one the
    /// app gave (``Collection/reset(parsing:silent:options:)``); a sync's answer names its
    /// own (``responseContext``).
    var readDocument: JSONObject? {
        get { extras?.readDocument }
        set { mutableExtras().readDocument = newValue }
    }

    /// Internal: the document of the read whose relation hands over this record: how an
    /// ``IdentityMap`` knows which records of a document it has applied, so that
    /// ``IdentityMap/mergeIncluded(from:)`` of that document applies each resource once.
    var linkedDocument: JSONObject? {
        get { extras?.linkedDocument }
        set { mutableExtras().linkedDocument = newValue }
    }

    /// Names `response` as the document of a read the app hands a collection: a compound
    /// document (with `included`), unless a sync's answer is named already.
    mutating func nameReadDocument(_ response: JSONValue) {
        guard extras?.responseContext == nil, case .object(let document) = response, document["included"] != nil
        else { return }
        readDocument = document
    }

    /// The compound document (with `included`) the records of this change were read from, if
    /// known: only its records can reach a model twice in one read.
    private var sourceDocument: JSONObject? {
        guard let extras else { return nil }
        if let document = extras.linkedDocument ?? extras.readDocument { return document }
        guard case .object(let body)? = extras.responseContext?.response.body, body["included"] != nil else {
            return nil
        }
        return body
    }

    /// The options a model being built gives the records of its relations: silent, as
    /// construction is; for a server record (`parse: true`) each related record is a server
    /// record of its own class, in app form already, that goes through its class's `parse`,
    /// with the read's context and document.
    ///
    /// Derived once per options value a collection read shares among its models (kept in
    /// their extras), not per model.
    var relatedBuildOptions: ChangeOptions {
        guard parse == true else { return Self.silentBuild }
        if let kept = extras?.relatedBuildOptions { return kept }
        var related = ChangeOptions(silent: true, parse: true)
        related.wireFormatApplied = true
        guard let extras else { return related }
        if let context = extras.responseContext { related.responseContext = context }
        if let document = sourceDocument { related.linkedDocument = document }
        extras.relatedBuildOptions = related
        return related
    }

    /// `silent` alone, flag by flag: the public initializer builds its empty `custom` default and
    /// destroys it again, about 90 instructions for every model built with relations.
    private static var silentBuild: ChangeOptions {
        var options = ChangeOptions()
        options.silent = true
        return options
    }

    /// These options for the records a `set` of a server record (`parse: true`) hands its
    /// relations: the same options, naming the document they were read from.
    var linkingRecords: ChangeOptions {
        guard parse == true, let extras, extras.linkedDocument == nil, let document = sourceDocument else {
            return self
        }
        var linking = self
        if let kept = extras.linkingExtras {
            linking.extras = kept
            return linking
        }
        let derived = extras.copy()
        derived.linkedDocument = document
        extras.linkingExtras = derived
        linking.extras = derived
        return linking
    }
}
