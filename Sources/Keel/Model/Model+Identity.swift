/// A model's identity: its client id, its id, whether it is new, its last validation errors, and clones.
extension Model {
    /// The client id: unique among all models and collections of the process, such as `"c12"`.
    ///
    /// ```swift
    /// Note().cid  // "c41"
    /// ```
    public var cid: String { type(of: self).cidPrefix + String(cidNumber) }

    /// The name of the attribute that holds the id (the class's `idAttribute`).
    ///
    /// ```swift
    /// Model().idAttribute  // "id"
    /// ```
    public var idAttribute: String { type(of: self).idAttribute }

    /// The model's id: the value of the `idAttribute`, or `nil` when it has none.
    ///
    /// ```swift
    /// let note = Note(["id": 7])
    /// note.id  // 7
    /// ```
    public var id: JSONValue? {
        observe(idAttribute)
        return storedID
    }

    /// Whether the model has never been saved: it has no id (or a `null` one).
    ///
    /// ```swift
    /// Note().isNew            // true
    /// Note(["id": 0]).isNew   // false
    /// ```
    public var isNew: Bool { !has(idAttribute) }

    /// The last validation errors, or `nil` after a change that passed validation.
    ///
    /// ```swift
    /// note.set(["title": "no"])
    /// note.validationError?["title"]  // ["Title cannot be less than 5 characters"]
    /// ```
    public var validationError: ValidationError? {
        observe(Self.validationErrorKeyPath)
        return storedValidationError
    }

    /// Returns a new model of the same class with the same attributes and a new client id.
    ///
    /// ```swift
    /// let copy = note.clone()
    /// copy.cid == note.cid  // false
    /// ```
    ///
    /// - Returns: An independent model that belongs to no collection.
    public func clone() -> Self {
        Self(storage)
    }
}
