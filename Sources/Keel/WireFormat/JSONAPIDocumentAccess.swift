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
}

extension Model {
    /// The `meta` of this model's resource object in the last ``fetch(options:)`` or
    /// ``save(_:wait:patch:options:)`` response of a JSON:API document, or `nil`.
    ///
    /// Models read from a list keep no response of their own: use the collection's
    /// ``Collection/lastResponse`` there.
    ///
    /// ```swift
    /// try await article.fetch()
    /// article.resourceMeta?["views"]
    /// ```
    public var resourceMeta: JSONValue? { remoteAttributes?["data"]?["meta"] }

    /// The `links` of this model's resource object in the last ``fetch(options:)`` or
    /// ``save(_:wait:patch:options:)`` response of a JSON:API document (`self`), or `nil`.
    ///
    /// ```swift
    /// try await article.fetch()
    /// article.resourceLinks?["self"]
    /// ```
    public var resourceLinks: JSONValue? { remoteAttributes?["data"]?["links"] }
}
