extension Collection {
    /// The models, in order.
    ///
    /// ```swift
    /// let titles = notes.models.map { $0["title"] }
    /// ```
    public var models: [M] {
        observeModels()
        return storage
    }

    /// The models as ``Model`` values.
    ///
    /// ```swift
    /// let any: [Model] = notes.allModels
    /// ```
    public var allModels: [Model] { Self.upcast(models) }

    /// The number of models (Backbone's `length`; the same as `count`).
    ///
    /// ```swift
    /// notes.length
    /// ```
    public var length: Int { count }

    /// The model with this id or client id, or the model identified by these attributes.
    ///
    /// ```swift
    /// notes.get(1)              // by id
    /// notes.get("c12")          // by client id
    /// notes.get(["id": 1])      // by attributes
    /// ```
    ///
    /// Ids compare as JSON values, so `1` and `1.0` find the same model but `"1"` does not
    /// (Backbone turns every id into a string).
    ///
    /// - Parameter id: An id, a client id, or an attributes object.
    /// - Returns: The model, or `nil`.
    /// - Complexity: O(1) on average.
    public func get(_ id: JSONValue) -> M? {
        observeModels()
        return member(id)
    }

    /// The model `get(_:)` finds for this id, without reporting a read to Observation: for
    /// the mutations that look a model up (a removal reads nothing a view could depend on).
    @inline(__always)
    func member(_ id: JSONValue) -> M? {
        // An integer id, the common case, is looked up here; the others out of line, so that
        // this call saves few registers and reads nothing but the index.
        guard case .int(let integer) = id else { return indexed(other: id) }
        guard let model = byID[integer: integer] else { return nil }
        return unsafeDowncast(model, to: M.self)
    }

    /// The model for an id that is not an integer (a client id, an attributes object or
    /// another JSON value), as `get(_:)` finds it.
    @inline(never)
    private func indexed(other id: JSONValue) -> M? {
        switch id {
        case .object(let attributes):
            guard let key = modelID(for: attributes, idAttribute: M.idAttribute) else { return nil }
            return indexed(id: key)
        case .string(let cid):
            return indexed(id: id) ?? indexed(cid: cid)
        default:
            return indexed(id: id)
        }
    }

    /// The model in this collection that is `model` or has its id.
    ///
    /// ```swift
    /// notes.get(note.clone())  // finds `note` by its id
    /// ```
    ///
    /// - Parameter model: A model, possibly another instance with the same id.
    /// - Returns: The collection's model, or `nil`.
    /// - Complexity: O(1) on average.
    public func get(_ model: Model) -> M? {
        observeModels()
        return member(model)
    }

    /// The collection's model that `get(_:)` finds for `model`, without reporting a read to
    /// Observation (see ``member(_:)-(JSONValue)``).
    func member(_ model: Model) -> M? {
        if let found = indexed(cidNumber: model.cidNumber) { return found }
        guard let id = indexKey(of: model) else { return nil }
        return indexed(id: id)
    }

    /// The key that the id index files `model` under: ``modelID(for:idAttribute:)`` of its
    /// attributes, which is the model's cached id unless a subclass decides ids.
    @inline(__always)
    func indexKey(of model: Model) -> JSONValue? {
        isBaseCollection ? model.storedID : modelID(for: model.storage, idAttribute: model.idAttribute)
    }

    /// The model indexed under this id.
    @inline(__always)
    func indexed(id: JSONValue) -> M? {
        // Integer ids are matched here, before any call: passing the id on copies it.
        let model = if case .int(let integer) = id { byID[integer: integer] } else { byID[id] }
        guard let model else { return nil }
        return unsafeDowncast(model, to: M.self)
    }

    /// The model indexed under this client id number.
    func indexed(cidNumber: Int) -> M? {
        guard let model = byCID[cidNumber] else { return nil }
        return unsafeDowncast(model, to: M.self)
    }

    /// The model with this client id: a class's prefix followed by the client id number.
    ///
    /// The prefix may itself end in digits, so every all-digit suffix is tried, longest
    /// first; the model's own `cid` confirms the match.
    func indexed(cid: String) -> M? {
        let utf8 = cid.utf8
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        var start = utf8.endIndex
        while start > utf8.startIndex, digits.contains(utf8[utf8.index(before: start)]) {
            start = utf8.index(before: start)
        }
        while start < utf8.endIndex {
            if let number = Int(Substring(utf8[start...])), let model = indexed(cidNumber: number), model.cid == cid {
                return model
            }
            start = utf8.index(after: start)
        }
        return nil
    }

    /// Whether the collection has a model with this id, client id or attributes.
    ///
    /// ```swift
    /// notes.has(1)
    /// ```
    ///
    /// - Parameter id: An id, a client id, or an attributes object.
    public func has(_ id: JSONValue) -> Bool { get(id) != nil }

    /// Whether the collection has this model, or one with its id.
    ///
    /// ```swift
    /// notes.has(note)
    /// ```
    ///
    /// - Parameter model: A model.
    public func has(_ model: Model) -> Bool { get(model) != nil }

    /// The models as `[Model]`, sharing their storage.
    ///
    /// Converting `[M]` to `[Model]` in this generic code casts every element on platforms
    /// without Objective-C (about 200 instructions per model, in every `update` event of a
    /// large `add`). An array of a class and one of its superclass have the same
    /// representation, and Swift shares the storage for this conversion where it can, so
    /// the storage is reinterpreted instead.
    static func upcast(_ models: [M]) -> [Model] {
        unsafeBitCast(models, to: [Model].self)
    }

    /// The models of a list that holds only `M`s, as `[M]`: the inverse of ``upcast(_:)``,
    /// without a check or a copy.
    static func downcast(_ models: [Model]) -> [M] {
        unsafeBitCast(models, to: [M].self)
    }
}
