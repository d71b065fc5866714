extension SyncResponse {
    /// The top-level `meta` of a JSON:API document (totals, server information), or `nil`.
    ///
    /// ```swift
    /// let response = try await article.fetch()
    /// response.jsonAPIMeta?["copyright"]
    /// ```
    public var jsonAPIMeta: JSONValue? { body?["meta"] }

    /// The top-level `links` of a JSON:API document (`self`, `next`, …), or `nil`.
    ///
    /// ```swift
    /// try await articles.fetch()
    /// articles.lastResponse?.jsonAPILinks?["next"]
    /// ```
    public var jsonAPILinks: JSONValue? { body?["links"] }

    /// The `included` resource objects of a JSON:API document, in order.
    ///
    /// They are as the server sent them; the list is empty when the document has none. Those
    /// of a type no class is registered for (``IdentityMap/registerResourceType(_:for:collection:)``)
    /// are read nowhere else.
    ///
    /// ```swift
    /// let response = try await article.fetch(options: options)
    /// let tags = response.jsonAPIIncluded.filter { $0["type"] == "tags" }
    /// ```
    public var jsonAPIIncluded: [JSONValue] { body?["included"]?.arrayValue ?? [] }
}

extension Model {
    /// The `meta` of this model's resource object in the last JSON:API document that read it,
    /// or `nil`: its own ``fetch(options:)`` or ``save(_:wait:patch:options:)`` response, or
    /// the list a collection's ``Collection/fetch(reset:options:)`` (or a ``Paginator``'s
    /// page) read it from, whichever came last.
    ///
    /// ```swift
    /// try await articles.fetch()
    /// articles.first?.resourceMeta?["comment-count"]
    /// ```
    public var resourceMeta: JSONValue? { resourceObject?["meta"] }

    /// The `links` of this model's resource object (`self`) in the last JSON:API document
    /// that read it, as ``resourceMeta`` says, or `nil`.
    ///
    /// ```swift
    /// try await article.fetch()
    /// article.resourceLinks?["self"]
    /// ```
    public var resourceLinks: JSONValue? { resourceObject?["links"] }

    /// The resource object of the last list or own response that carried this model.
    private var resourceObject: JSONValue? {
        storedExtras?.resourceObject ?? remoteAttributes?["data"]
    }
}

extension Collection {
    /// Gives each model of a JSON:API list document its resource object, so that the
    /// resource's `meta` and `links` are reachable on the model.
    func keepResourceObjects(of document: JSONValue?) {
        guard let list = document?["data"]?.arrayValue else { return }
        for resource in list {
            guard let id = resource["id"], let model = get(JSONAPIFormat.appID(id)) else { continue }
            model.extras.resourceObject = resource
        }
    }
}
