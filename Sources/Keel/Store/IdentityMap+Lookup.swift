// MARK: - Looking up

extension IdentityMap {
    /// The number of live models the map tracks.
    ///
    /// ```swift
    /// map.count  // 0 once every tracked model has been deallocated
    /// ```
    public var count: Int { entries.count }

    /// The live instance for a record, if one is loaded.
    ///
    /// ```swift
    /// let note = map.existing(Note.self, id: 7, in: "/notes")
    /// ```
    ///
    /// - Parameters:
    ///   - type: The model class.
    ///   - id: The record's id.
    ///   - collection: The collection path, such as `/notes`.
    /// - Returns: The instance, or `nil` when none is alive or it is not an `M`.
    /// - Complexity: O(1) on average.
    public func existing<M: Model>(_ type: M.Type = M.self, id: JSONValue, in collection: String) -> M? {
        entries[key(collection, id: id)]?.model as? M
    }

    /// The live instance for a record, of whatever class.
    func existingModel(in collection: String, id: JSONValue) -> Model? {
        entries[key(collection, id: id)]?.model
    }

    /// Finds or inserts the model for a record: the live instance for its id, updated with
    /// `attributes`, or a new instance, registered.
    ///
    /// A record without an id gives a new model that is registered as soon as it gets an id
    /// (for example when `save()` creates it).
    ///
    /// ```swift
    /// let first = map.model(Note.self, collection: "/notes", attributes: ["id": 1, "title": "A"])
    /// let again = map.model(Note.self, collection: "/notes", attributes: ["id": 1, "title": "B"])
    /// first === again    // true
    /// first["title"]     // "B"
    /// // A server record of a Rails class, found by the id inside its root key:
    /// let same = map.model(Note.self, collection: "/notes", attributes: ["note": ["id": 1]], options: ChangeOptions(parse: true))
    /// ```
    ///
    /// - Parameters:
    ///   - type: The model class.
    ///   - collection: The collection path, such as `/notes`.
    ///   - attributes: The record's attributes, as loaded.
    ///   - options: Options for building the model or setting the attributes (`parse: true`
    ///     reads the attributes as a server record, as a fetch does: the class's
    ///     ``Model/wireFormat``, then the model's `parse`; `silent: true` suppresses change
    ///     events).
    /// - Returns: The one instance for this record.
    /// - Precondition: A live instance for this record, if any, is an `M`; two model
    ///   classes for one collection path is a programming error.
    /// - Complexity: O(1) on average, plus the cost of setting the attributes.
    public func model<M: Model>(
        _ type: M.Type,
        collection: String,
        attributes: Attributes,
        options: ChangeOptions = ChangeOptions()
    ) -> M {
        let model = anyModel(type, collection: collection, attributes: attributes, options: options)
        guard let typed = model as? M else {
            preconditionFailure(
                "IdentityMap: \(collection)/\(model.id ?? nil) is loaded as \(Swift.type(of: model)), which is not \(M.self)"
            )
        }
        return typed
    }

    /// ``model(_:collection:attributes:options:)`` for a class known at run time.
    ///
    /// Models it creates build their related models (``HasMany``, ``HasOne``, ``BelongsTo``)
    /// through the map too, under the related class's `urlRoot`, so a related record has one
    /// instance however it was loaded.
    func anyModel(
        _ type: Model.Type,
        collection: String,
        attributes: Attributes,
        options: ChangeOptions
    ) -> Model {
        findOrInsert(type, collection: collection, attributes: attributes, options: options).model
    }
}
