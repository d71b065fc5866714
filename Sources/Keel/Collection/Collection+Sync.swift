extension Collection {
    /// Loads the collection from its backend and updates it with the response.
    ///
    /// By default it does a smart ``set(parsing:add:remove:merge:silent:options:)``: new
    /// models are added, present ones merged by id, missing ones removed. With `reset` it
    /// replaces everything and emits one `reset`. Emits `request`, then the update events,
    /// then `sync`; on failure `error` (or the options' ``SyncOptions/onFailure``).
    ///
    /// ```swift
    /// let notes = Collection<Note>(url: "/notes", sync: InMemorySync())
    /// try await notes.fetch()
    /// try await notes.fetch(options: SyncOptions(query: ["done": "false"]))
    /// ```
    ///
    /// - Parameters:
    ///   - reset: Replace the models instead of merging.
    ///   - options: Per-call URL, query, headers, `add`/`remove`/`merge` flags, handlers.
    /// - Returns: The models that correspond to the response.
    /// - Throws: ``SyncError``; ``SyncError/invalidResponse(_:)`` when the response is not a
    ///   list of models, in which case the collection is left as it was.
    @discardableResult
    public func fetch(reset: Bool = false, options: SyncOptions = SyncOptions()) async throws(SyncError) -> [M] {
        var options = options
        if reset { options.reset = true }
        await syncGate.enter()
        defer { syncGate.leave() }
        guard let backend = sync ?? M.sync ?? Store.sharedSync else { throw .missingBackend }
        let callFormat = options.wireFormat ?? wireFormat ?? M.wireFormat
        var routed: String?
        var route: Route?
        if let name = options.route {
            guard let named = M.routes.named[name] else { throw .missingURL("\(M.self) has no route named \(name)") }
            routed = callFormat.suffixed(try named.path(options.routeParameters))
            route = options.url == nil ? named : nil
        }
        guard let path = options.url ?? routed ?? url.map(callFormat.suffixed), !path.isEmpty else {
            throw .missingURL("\(type(of: self)) has no url")
        }
        let base = baseURL ?? M.baseURL
        var request = try makeRequest(
            .read,
            url: try URLPath.resolve(path, against: base),
            body: nil,
            format: callFormat,
            options: options,
            rootKey: callFormat.requestRootKey(for: M.self)
        )
        request.listKeyPath = callFormat.listKeyPath
        request.pageStyle = options.pageStyle
        let response = try await performSync(
            request,
            with: backend,
            model: nil,
            collection: self,
            format: callFormat,
            options: options,
            mappings: M.responseMappings,
            baseURL: base
        )
        let mapped = ResponseMappings.reading(
            response,
            to: request,
            of: M.self,
            format: callFormat,
            route: route,
            baseURL: base
        )
        // A mapping that says the body carries no records leaves the collection as it is.
        guard let format = mapped.format else {
            lastResponse = response
            reportSyncSuccess(response, request: request, model: nil, collection: self, options: options)
            return []
        }
        let body: JSONValue
        do {
            body = try format.records(from: response.body ?? .null, for: M.self)
        } catch {
            reportSyncFailure(error, request: request, model: nil, collection: self, options: options)
            throw error
        }
        // The records are in app form now: `set(parsing:)` must not map them again.
        var update = options.update
        update.change.wireFormatApplied = true
        update.change.responseContext = mapped.context
        let models: [M]
        do {
            if options.parse == false {
                let inputs = try Self.unparsedInputs(body)
                models =
                    options.reset
                    ? self.reset(inputs: inputs, options: update)
                    : set(inputs: inputs, options: update)
            } else if options.reset {
                models = try self.reset(parsing: body, options: update)
            } else {
                models = try set(parsing: body, options: update)
            }
        } catch {
            let failure = SyncError.invalidResponse(error.description)
            reportSyncFailure(failure, request: request, model: nil, collection: self, options: options)
            throw failure
        }
        for model in models { model.markSynced() }
        SentRecords(response.body ?? .null, read: body, format: format, modelType: M.self)?.give(to: models)
        if format.jsonAPIFormat != nil { keepResourceObjects(of: response.body) }
        lastResponse = response
        reportSyncSuccess(response, request: request, model: nil, collection: self, options: options)
        return models
    }

    private static func unparsedInputs(_ body: JSONValue) throws(CollectionError) -> CollectionInputs {
        guard case .array(let values) = body else { throw .unparsableResponse(body) }
        var inputs: [Attributes] = []
        for value in values {
            guard let object = value.objectValue else { throw .unparsableResponse(body) }
            inputs.append(object)
        }
        return .attributes(inputs)
    }

    /// Creates a model in the collection and saves it.
    ///
    /// Without `wait` the model is added at once and stays added if the server refuses it,
    /// as in Backbone; if local validation rejects it before anything is sent, it is
    /// removed again (`remove` and `update` fire), unlike Backbone, which leaves it in.
    /// With `wait` it is added only after the server agrees, and a failure is also emitted
    /// as `error` on the collection.
    ///
    /// The model keeps the collection's backend, URL and base URL if the collection is
    /// released, so it can still be saved and destroyed.
    ///
    /// ```swift
    /// let note = try await notes.create(["title": "Groceries"])
    /// note.id  // assigned by the server
    /// ```
    ///
    /// - Parameters:
    ///   - attributes: The new model's attributes.
    ///   - wait: Add the model only after the server agrees.
    ///   - options: Options for building, adding and saving the model.
    /// - Returns: The saved model.
    /// - Throws: ``SyncError``; ``SyncError/validationFailed(_:status:)`` when the model is
    ///   invalid (nothing is sent).
    @discardableResult
    public func create(_ attributes: Attributes, wait: Bool = false, options: SyncOptions = SyncOptions())
        async throws(SyncError)
        -> M
    {
        await yieldToTasksStartedBefore()
        let (model, error) = makeModel(attributes, options: options.update)
        if let error { throw .validationFailed(error, status: nil) }
        return try await addAndSave(model, wait: wait || options.wait, options: options)
    }

    /// Adds a model to the collection and saves it; see ``create(_:wait:options:)-(Attributes,_,_)``.
    ///
    /// ```swift
    /// let note = try await notes.create(Note(["title": "Groceries"]), wait: true)
    /// ```
    ///
    /// - Parameters:
    ///   - model: The model.
    ///   - wait: Add the model only after the server agrees.
    ///   - options: Options for adding and saving the model.
    /// - Returns: The saved model.
    /// - Throws: ``SyncError``.
    @discardableResult
    public func create(_ model: M, wait: Bool = false, options: SyncOptions = SyncOptions()) async throws(SyncError)
        -> M
    {
        await yieldToTasksStartedBefore()
        return try await addAndSave(model, wait: wait || options.wait, options: options)
    }

    /// The rest of ``create(_:wait:options:)-(M,_,_)`` after its first suspension, `wait`
    /// being the call's or the options'.
    ///
    /// Tasks started before the call have run by then, so neither this nor the model's
    /// save suspends again for them: from the main actor, each such suspension is a hop to
    /// the global executor and back. Without `wait` the model's save gets the call's options
    /// as they are (their `wait` is `false`), without a copy of them.
    private func addAndSave(_ model: M, wait: Bool, options: SyncOptions) async throws(SyncError) -> M {
        let adopts = wait && model.collection == nil
        do {
            if wait {
                var saveOptions = options
                saveOptions.wait = false
                if adopts { model.setCollectionForwarder(forwardingHandler) }
                saveOptions.afterSave = { [unowned self] in self.add(model, options: options.update) }
                try await model.save(nil, options: saveOptions, yieldingFirst: false)
            } else {
                addCreated(model, options: options.update)
                try await model.save(nil, options: options, yieldingFirst: false)
            }
        } catch {
            // Local validation rejected the model before anything was sent: nothing can
            // clean it up in Swift, so take it out again (Backbone leaves it in).
            if !wait, case .validationFailed(_, status: nil) = error, has(model) {
                remove(model, options: options.update)
            }
            if wait && !has(model) {
                if adopts { model.collectionForwarder = nil }
                if options.onFailure == nil {
                    dispatch(
                        Event(name: "error", model: model, collection: self, error: error, options: options.change)
                    )
                }
            }
            throw error
        }
        return model
    }

    /// Adds a model that ``create(_:wait:options:)-(Attributes,_,_)`` has just made, as
    /// `add(model, options: options)` does, without the general update when nothing can
    /// differ: the collection has no comparator and no update batching, is not updating, and
    /// the model has no id and is not in it, so the model is appended and indexed by its client
    /// id, then `add` and `update` fire as `add` fires them.
    ///
    /// Anything else (an id that may name a present model, a subclass's `modelID`, an `at`
    /// position, `parse: true`, which `set` notes in the events' options) takes `add`.
    private func addCreated(_ model: M, options: UpdateOptions) {
        guard isBaseCollection, comparator == nil, options.at == nil, options.parse != true, !isUpdating,
            updateBatching == nil, model.storedID == nil, byCID[model.cidNumber] == nil
        else {
            add(model, options: options)
            return
        }
        let forwarder = forwardingHandler
        whileUpdating {
            addReference(model, forwarder: forwarder)
            appendModel(model)
        }
        guard !options.silent else { return }
        let audience = ModelEventAudience(named: "add", in: self)
        if !audience.isEmpty(for: model) {
            model.dispatch(Event(name: "add", model: model, collection: self, options: options.change))
        }
        if hasHandlers {
            let changes = CollectionChanges(added: [model], removed: [], merged: [])
            dispatch(Event(name: "update", collection: self, changes: changes, options: options.change))
        }
    }
}
