extension Model {
    // MARK: - Building requests without sending them

    /// The request ``fetch(options:)`` would send now, built without sending it: for logging,
    /// for a queue of your own, or to check in a test.
    ///
    /// The URL, query, headers and media type are the fetch's, in the model's wire format (the
    /// call's ``SyncOptions/wireFormat``, else its collection's, else its class's). Nothing is
    /// emitted and the model does not change. Send it with any backend, and read the answer
    /// as a fetch does with ``set(_:silent:validate:options:)-(Attributes,_,_,_)`` and `parse: true`.
    ///
    /// ```swift
    /// let request = try note.fetchRequest()
    /// request.method               // .read
    /// request.url.absoluteString   // "/notes/7"
    /// let response = try await api.perform(request)
    /// note.set(response.body?.objectValue ?? [:], options: ChangeOptions(parse: true))
    /// ```
    ///
    /// - Parameter options: Per-call URL, query, headers, route, format.
    /// - Returns: The request.
    /// - Throws: ``SyncError/missingURL(_:)`` when the model has no URL,
    ///   ``SyncError/missingID(model:)`` when its URL would be its collection's, and the other
    ///   errors a fetch throws before it sends anything (an invalid header, a missing route
    ///   parameter).
    public func fetchRequest(options: SyncOptions = SyncOptions()) throws(SyncError) -> SyncRequest {
        try checkIdentifiedForFetch(options: options)
        return try makeBodilessRequest(.read, format: wireFormat(for: options), options: options)
    }

    /// The request ``save(_:wait:patch:options:)`` would send now, built without sending it
    /// or changing the model, or `nil` when that save would send nothing (a patch with nothing
    /// to send).
    ///
    /// The request is the save's: `.create` for a new model, otherwise `.patch` for a patch or
    /// a format whose ``WireFormat/updateVerb`` is ``UpdateVerb/patch``, otherwise `.update`;
    /// the body is ``toJSON(options:)`` with the given attributes over it (for a patch, the
    /// given attributes or the ``unsavedChanges``) in the wire format, as the format's
    /// `encode(_:for:)` gives it for a model. The model is not validated.
    ///
    /// ```swift
    /// let request = try note.saveRequest(["title": "Errands"], patch: true)
    /// request?.method  // .patch
    /// request?.body    // ["note": ["title": "Errands"]] for a Rails note
    /// ```
    ///
    /// - Parameters:
    ///   - attributes: Attributes the save would change first, or `nil` to save as is.
    ///   - patch: Build the request of a patch: only the changes, with PATCH.
    ///   - options: Per-call URL, body, headers, format.
    /// - Returns: The request, or `nil` when the save would send nothing.
    /// - Throws: ``SyncError/missingURL(_:)`` when the model has no URL, and the other errors
    ///   a save throws before it sends anything.
    public func saveRequest(
        _ attributes: Attributes? = nil,
        patch: Bool = false,
        options: SyncOptions = SyncOptions()
    ) throws(SyncError) -> SyncRequest? {
        var options = options
        if patch { options.patch = true }
        // The model is left as it is: the request sees the attributes as a `wait` save does.
        options.wait = true
        let saved = storage
        defer { replaceStorage(saved) }
        if let attributes { replaceStorage(storage.merging(attributes)) }
        guard !savesNothing(attributes, options: options) else { return nil }
        return try makeSaveRequest(attributes, format: wireFormat(for: options), options: options)
    }

    /// The request ``destroy(wait:options:)`` would send now, built without sending it, or
    /// `nil` for a new model, which `destroy` removes locally without a request.
    ///
    /// ```swift
    /// let request = try note.destroyRequest()
    /// request?.method  // .delete
    /// ```
    ///
    /// - Parameter options: Per-call URL, headers, format.
    /// - Returns: The request, or `nil` for a new model.
    /// - Throws: ``SyncError/missingURL(_:)`` when the model has no URL, and the other errors
    ///   a destroy throws before it sends anything.
    public func destroyRequest(options: SyncOptions = SyncOptions()) throws(SyncError) -> SyncRequest? {
        guard !isNew else { return nil }
        return try makeBodilessRequest(.delete, format: wireFormat(for: options), options: options)
    }

    // MARK: - Internals

    /// The request of a fetch or a destroy: no body.
    func makeBodilessRequest(
        _ method: SyncMethod,
        format: WireFormat,
        options: SyncOptions
    ) throws(SyncError) -> SyncRequest {
        try makeRequest(
            method,
            target: try requestTarget(for: method, options: options),
            body: nil,
            format: format,
            options: options,
            rootKey: format.requestRootKey(for: Self.self)
        )
    }

    /// Whether a save would send nothing: a patch of a saved model with no body of its own,
    /// no files and nothing to send among the given attributes or the unsaved changes.
    func savesNothing(_ attributes: Attributes?, options: SyncOptions) -> Bool {
        options.patch && !isNew && options.body == nil && options.requestBody == nil && options.files.isEmpty
            && encodingRelations(in: attributes ?? unsavedChanges ?? [:], changesOnly: true).isEmpty
    }

    /// The create, update or patch request of a save: the body is ``saveBody(_:patch:format:options:)``,
    /// and a full update goes with the format's verb.
    ///
    /// With `wait`, the URL, `isNew` and `toJSON` see the attributes being saved, as in Backbone.
    func makeSaveRequest(
        _ attributes: Attributes?,
        format: WireFormat,
        options: SyncOptions
    ) throws(SyncError) -> SyncRequest {
        let saved = storage
        defer { replaceStorage(saved) }
        if let attributes, options.wait { replaceStorage(storage.merging(attributes)) }
        let method: SyncMethod =
            isNew ? .create : options.patch || format.updateVerb == .patch ? .patch : .update
        let body =
            options.body ?? saveBody(attributes, patch: options.patch, format: format, options: options.change)
        var request = try makeRequest(
            method,
            target: try requestTarget(for: method, options: options),
            body: body,
            format: format,
            options: options,
            rootKey: format.requestRootKey(for: Self.self)
        )
        if !options.files.isEmpty && options.requestBody == nil {
            request.requestBody = .multipart(format.multipartForm(body, files: options.files, for: Self.self))
        }
        return request
    }

    /// The body of a save in a wire format: ``toJSON(options:)`` with the relations encoded,
    /// or, for a patch of a saved model, the given attributes (else the ``unsavedChanges``)
    /// and the ``AttributeRole/alwaysSent`` ones.
    func saveBody(_ attributes: Attributes?, patch: Bool, format: WireFormat, options: ChangeOptions) -> JSONValue {
        guard patch && !isNew else {
            return format.requestBody(
                encodingRelations(in: toJSON(options: options), changesOnly: false),
                for: Self.self
            )
        }
        var changes = encodingRelations(in: attributes ?? unsavedChanges ?? [:], changesOnly: true)
        changes.attributes = format.alwaysSentAttributes(of: storage).merging(changes.attributes)
        return format.requestBody(changes, for: Self.self)
    }
}
