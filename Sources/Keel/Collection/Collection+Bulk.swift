extension Collection {
    /// Creates several new models with one request whose body is the list of their records,
    /// and gives each model the server's record for it: RestKit's multi-object
    /// parameterization.
    ///
    /// Each record is the model's create body in the collection's wire format; the list goes
    /// to the collection's URL with POST, bare (`[{…}, {…}]`, as Django REST framework's
    /// `many=True` serializers read it) or, for a format that wraps records in a root key,
    /// under the plural one (`{"notes": [{…}, {…}]}`). The answer must be a list of as many
    /// records, in the same order (bare or under the plural root key): each model gets its
    /// record by position, with its id, `change` events and `sync`, as after its own save.
    ///
    /// Nothing is sent when a model fails its validation (its `invalid` fires). When the
    /// server refuses the request, no model changes; a refusal that lists one error object per
    /// record (Django REST framework's `[{}, {"title": ["This field may not be blank."]}]`)
    /// gives each refused model its ``Model/validationError`` and `invalid`. An answer that is
    /// not a list of as many records leaves every model as it was and throws
    /// ``SyncError/invalidResponse(_:)``.
    ///
    /// ```swift
    /// let notes = Collection<Note>(url: "/notes", sync: api)
    /// notes.add([Note(["title": "One"]), Note(["title": "Two"])])
    /// try await notes.bulkSave()
    /// notes.map(\.isNew)  // [false, false]
    /// ```
    ///
    /// - Parameters:
    ///   - models: The models to create; `nil` for the new models of the collection.
    ///   - options: Per-call URL, headers, timeout and handlers of the one request.
    /// - Returns: The backend's response; an empty 204 response, with nothing sent, when
    ///   there is no model to create.
    /// - Throws: ``SyncError``; ``SyncError/notNew(model:id:)`` for the first model that has
    ///   an id already, and ``SyncError/validationFailed(_:status:)`` with a `nil` status for
    ///   the first model that failed local validation; nothing is sent then.
    @discardableResult
    public func bulkSave(_ models: [M]? = nil, options: SyncOptions = SyncOptions()) async throws(SyncError)
        -> SyncResponse
    {
        let batch = models ?? self.models.filter(\.isNew)
        if let saved = batch.first(where: { !$0.isNew }) {
            throw .notNew(model: String(describing: type(of: saved)), id: saved.id ?? .null)
        }
        guard !batch.isEmpty else { return SyncResponse(status: 204) }
        if options.validate ?? true, let invalid = batch.first(where: { !$0.isValid(options: options.change) }) {
            throw .validationFailed(invalid.validationError ?? ValidationError(), status: nil)
        }
        guard let backend = sync ?? M.sync ?? Store.sharedSync else { throw .missingBackend }
        let format = options.wireFormat ?? wireFormat ?? M.wireFormat
        let envelope = BulkEnvelope(format: format, modelType: M.self)
        let records = batch.map {
            envelope.record(in: $0.saveBody(nil, patch: false, format: format, options: options.change))
        }
        guard let path = options.url ?? url.map(format.suffixed), !path.isEmpty else {
            throw .missingURL("\(type(of: self)) has no url")
        }
        let request = try makeRequest(
            .create,
            url: try URLPath.resolve(path, against: baseURL ?? M.baseURL),
            body: envelope.body(records),
            format: format,
            options: options
        )
        let response: SyncResponse
        do {
            response = try await performSync(
                request,
                with: backend,
                model: nil,
                collection: self,
                format: format,
                options: options
            )
        } catch {
            reportRefusals(error, of: batch, envelope: envelope, request: request, options: options)
            throw error
        }
        guard let answers = envelope.records(in: response.body), answers.count == batch.count else {
            let error = SyncError.invalidResponse(
                "a bulk create of \(batch.count) records was not answered with a list of \(batch.count) records"
            )
            reportSyncFailure(error, request: request, model: nil, collection: self, options: options)
            throw error
        }
        for (model, answer) in zip(batch, answers) {
            var answered = response
            answered.body = answer
            try model.applyResponse(answered, request: request, waitedAttributes: nil, format: format, options: options)
        }
        return response
    }

    /// Gives each model the errors of its element in a refusal that lists one per record.
    private func reportRefusals(
        _ error: SyncError,
        of batch: [M],
        envelope: BulkEnvelope,
        request: SyncRequest,
        options: SyncOptions
    ) {
        guard case .httpStatus(let status, let body) = error, let perRecord = envelope.records(in: body),
            perRecord.count == batch.count
        else { return }
        for (model, element) in zip(batch, perRecord) where element.objectValue?.isEmpty == false {
            let failure = envelope.format.appFailure(SyncError(failing: SyncResponse(status: status, body: element)))
            guard case .validationFailed(let errors, _) = failure else { continue }
            model.reportInvalid(errors, options: options.change, emitsError: false)
        }
    }
}
