extension Store {
    /// A collection of a class, wired to the store: its URL is the class's path, its
    /// backend the store's, and its models are built through the identity map (so the
    /// store holds every model a fetch loads, and a record loaded twice is one instance).
    ///
    /// Each call returns a new collection; a fetch merges what the server returns into
    /// the models the store already holds.
    ///
    /// ```swift
    /// let todos = store.collection(Todo.self)
    /// try await todos.fetch()
    /// ```
    ///
    /// - Parameters:
    ///   - type: The model class.
    ///   - comparator: How the collection orders its models.
    /// - Returns: A new collection.
    public func collection<M: Model>(_ type: M.Type, comparator: ModelComparator<M>? = nil) -> Collection<M> {
        let path = storedClass(for: type).path
        let collection = Collection<M>(
            comparator: comparator,
            factory: identityMap.factory(for: type, collection: path),
            url: path,
            sync: sync
        )
        collection.updateBatching = self
        // The collection's own answers (a model's come through the class it is held in).
        collection.on("sync", owner: self) { [weak self] event in
            guard event.model == nil, let response = event.response else { return }
            self?.mergeIncluded(of: response)
        }
        return collection
    }

    /// Loads one record and returns its one instance: the held model, updated with what
    /// the server answers, or a new model the store now holds.
    ///
    /// ```swift
    /// let todo = try await store.find(Todo.self, id: 7)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The model class.
    ///   - id: The record's id.
    /// - Returns: The model, or `nil` when the backend answers 404.
    /// - Throws: `SyncError` for any other failure.
    public func find<M: Model>(_ type: M.Type, id: JSONValue) async throws(SyncError) -> M? {
        try await identityMap.find(type, id: id, in: storedClass(for: type).path, from: sync)
    }

    /// Creates a model of a class and saves it: the store holds it at once, so live
    /// queries show it before the server answers, unless `wait` is set.
    ///
    /// A create the server rejects leaves the store (the model emits `destroy`, so
    /// queries and collections drop it) and throws; the model keeps the error in
    /// ``Model/validationError`` when the server answered 400 or 422 with field errors.
    ///
    /// ```swift
    /// let milk = try await store.create(Todo.self, ["title": "Milk"])
    /// milk.id  // assigned by the server
    /// ```
    ///
    /// - Parameters:
    ///   - type: The model class.
    ///   - attributes: The new model's attributes.
    ///   - wait: Hold the model (and show it in queries) only once the server agrees.
    ///   - options: Options for the save.
    /// - Returns: The saved model.
    /// - Throws: `SyncError`; ``SyncError/validationFailed(_:status:)`` with a `nil` status
    ///   when the model's own validation refused the attributes.
    @discardableResult
    public func create<M: Model>(
        _ type: M.Type,
        _ attributes: Attributes,
        wait: Bool = false,
        options: SyncOptions = SyncOptions()
    ) async throws(SyncError) -> M {
        let path = storedClass(for: type).path
        let model: M
        if wait {
            model = M(attributes)
            wire(model, path: path)
        } else {
            model = identityMap.model(type, collection: path, attributes: attributes)
        }
        do {
            try await model.save(nil, wait: wait, options: options)
        } catch {
            if !wait { model.trigger(Event(name: "destroy", model: model, options: options.change)) }
            throw error
        }
        if wait {
            do {
                try identityMap.register(model, collection: path)
            } catch {
                throw .invalidResponse(error.description)
            }
            // The store began to hold the model after its `sync`, so it invalidates here.
            invalidate(path: path)
        }
        return model
    }

    /// A live query over the models of a class the store holds.
    ///
    /// The query starts with the held models that pass the filter, in order, and follows
    /// every change from then on. It sends no request until ``LiveQuery/load(policy:)`` or
    /// ``LiveQuery/keepLoaded()``; those load `remoteQuery` from the class's path as
    /// `policy` says.
    ///
    /// ```swift
    /// let open = store.query(Todo.self, filter: .equals(Todo.done, false), sort: .attribute("title"))
    /// let firstPage = store.query(Todo.self, sort: .attribute("due"), limit: 20, policy: .cacheAndNetwork)
    /// let byStatus = store.query(Todo.self, sort: .attribute("due"), sectionedBy: "status")
    /// try await firstPage.load()
    /// ```
    ///
    /// - Parameters:
    ///   - type: The model class.
    ///   - filter: Which models the query holds; all when `nil`.
    ///   - sort: The order; the order the store came to hold the models when `nil`. In a
    ///     sectioned query, the order inside each section.
    ///   - sectionedBy: The attribute that groups the results into
    ///     ``LiveQuery/sections``, ordered by its value; no sections when `nil`.
    ///   - offset: How many matching models to skip.
    ///   - limit: The most models to hold; no limit when `nil`.
    ///   - remoteQuery: The query parameters of the query's requests.
    ///   - resources: The related resources, sparse fieldsets and filter of the query's
    ///     requests (JSON:API's `include`, `fields[type]` and Drupal's `filter[…]`), sent
    ///     after `remoteQuery`.
    ///   - policy: When loading sends a request; the class's, else the store's
    ///     ``defaultPolicy``, when `nil`.
    ///   - staleTime: How long a loaded answer stays fresh; the class's when `nil`.
    ///   - gcTime: How long the query's records stay once no live query uses them; the
    ///     class's, else the store's ``defaultGCTime``, when `nil`.
    ///   - tags: Names for ``invalidate(tag:)``.
    /// - Returns: A new live query.
    /// - Complexity: O(*n* log *n*) for *n* held models of the class.
    public func query<M: Model>(
        _ type: M.Type,
        filter: QueryFilter<M>? = nil,
        sort: ModelComparator<M>? = nil,
        sectionedBy: String? = nil,
        offset: Int = 0,
        limit: Int? = nil,
        remoteQuery: KeyValuePairs<String, String> = [:],
        resources: ResourceSelection = ResourceSelection(),
        policy: CachePolicy? = nil,
        staleTime: Duration? = nil,
        gcTime: Duration? = nil,
        tags: Set<String> = []
    ) -> LiveQuery<M> {
        collectGarbage()
        let parameters = QueryParameters(
            filter: filter,
            sort: sort,
            sectionAttribute: sectionedBy,
            offset: offset,
            limit: limit,
            remoteQuery: remoteQuery,
            resources: resources,
            policy: policy,
            staleTime: staleTime,
            gcTime: gcTime,
            tags: tags
        )
        return LiveQuery(store: self, stored: storedClass(for: type), parameters: parameters)
    }
}

/// Everything a live query is made of, handed to its initializer in one value.
struct QueryParameters<M: Model> {
    var filter: QueryFilter<M>?
    var sort: ModelComparator<M>?
    var sectionAttribute: String?
    var offset: Int
    var limit: Int?
    var remoteQuery: KeyValuePairs<String, String>
    var resources: ResourceSelection
    var policy: CachePolicy?
    var staleTime: Duration?
    var gcTime: Duration?
    var tags: Set<String>
}
